package io.cipherd.server.crypto;

import java.security.GeneralSecurityException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import javax.security.auth.DestroyFailedException;

/**
 * XAES-256-GCM (c2sp.org/XAES-256-GCM): {@code nonce ‖ ciphertext ‖ tag} with a 24-byte random
 * nonce whose first half derives a per-message AES-256-GCM key, so random nonces need no
 * per-version message limit. The message key comes from two AES blocks with a pooled ecb cipher;
 * the message is then sealed with a pooled AES-GCM cipher of this mode's own pool, with the last 12
 * nonce bytes as the GCM nonce. The spec's subkey K1 is derived once per version ({@link
 * #prepare}).
 */
final class XaesGcm extends JceFamily {
  /** Bytes of the nonce that derive the message key; the rest is the GCM nonce. */
  static final int DERIVING_NONCE_BYTES = 12;

  private static final int BLOCK = 16;

  private final int tagBits;
  private final int gcmNonceLength;

  XaesGcm(CipherMode mode) {
    super(mode);
    this.tagBits = mode.tagLength() * 8;
    this.gcmNonceLength = mode.ivLength() - DERIVING_NONCE_BYTES;
  }

  @Override
  public SecretKey prepare(SecretKey key) {
    return XaesKey.of(key);
  }

  @Override
  AlgorithmParameterSpec parameters(byte[] payload, int offset) {
    return new GCMParameterSpec(tagBits, payload, offset + DERIVING_NONCE_BYTES, gcmNonceLength);
  }

  /**
   * The message key derived from the version's key and the nonce at the payload's start, {@code
   * payload[offset]}, with a cipher from the ecb pool.
   */
  @Override
  SecretKey messageKey(CipherSource source, SecretKey key, byte[] payload, int offset) {
    XaesKey xaes = XaesKey.of(key);
    Cipher ecb = source.borrow(CipherMode.ECB, xaes.key());
    try {
      SecretKey derived = xaes.messageKey(ecb, payload, offset);
      source.release(CipherMode.ECB, xaes.key(), ecb);
      return derived;
    } catch (GeneralSecurityException | RuntimeException e) {
      source.invalidate(CipherMode.ECB, ecb);
      throw new CryptoProviderException(mode().transformation(), e);
    }
  }

  /**
   * An XAES-256-GCM key version: the 256-bit key K with its subkey K1, derived once per version as
   * the spec suggests, so each message costs two AES blocks of key derivation and a fresh
   * AES-256-GCM key schedule, not three blocks.
   */
  static final class XaesKey extends PreparedKey {
    private static final long serialVersionUID = 1L;

    private final transient byte[] k1;

    private XaesKey(SecretKey key, byte[] k1) {
      super(key);
      this.k1 = k1;
    }

    /** Derives K1 = dbl(AES_K(0¹²⁸)) in GF(2¹²⁸), as CMAC derives its first subkey. */
    static XaesKey of(SecretKey key) {
      if (key instanceof XaesKey xaes) {
        return xaes;
      }
      try {
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, key);
        byte[] l = ecb.doFinal(new byte[BLOCK]);
        byte[] k1 = new byte[BLOCK];
        int carry = 0;
        for (int i = BLOCK - 1; i >= 0; i--) {
          int b = l[i] & 0xff;
          k1[i] = (byte) ((b << 1) | carry);
          carry = b >>> 7;
        }
        if ((l[0] & 0x80) != 0) {
          k1[BLOCK - 1] ^= (byte) 0x87;
        }
        Arrays.fill(l, (byte) 0);
        return new XaesKey(key, k1);
      } catch (GeneralSecurityException e) {
        throw new CryptoProviderException("AES/ECB/NoPadding", e);
      }
    }

    /**
     * The message key Kx = AES_K(M1 ⊕ K1) ‖ AES_K(M2 ⊕ K1) for the nonce starting at {@code
     * nonce[offset]}, computed with {@code ecb}, an AES-ECB cipher (padded or not) the caller owns.
     */
    SecretKey messageKey(Cipher ecb, byte[] nonce, int offset) throws GeneralSecurityException {
      // Two blocks in, and room for the padding block a PKCS#5 ECB cipher appends (ignored).
      byte[] blocks = new byte[3 * BLOCK];
      blocks[1] = 0x01;
      blocks[2] = 'X';
      blocks[BLOCK + 1] = 0x02;
      blocks[BLOCK + 2] = 'X';
      System.arraycopy(nonce, offset, blocks, 4, DERIVING_NONCE_BYTES);
      System.arraycopy(nonce, offset, blocks, BLOCK + 4, DERIVING_NONCE_BYTES);
      for (int i = 0; i < BLOCK; i++) {
        blocks[i] ^= k1[i];
        blocks[BLOCK + i] ^= k1[i];
      }
      try {
        ecb.init(Cipher.ENCRYPT_MODE, key());
        ecb.doFinal(blocks, 0, 2 * BLOCK, blocks, 0);
        return new SecretKeySpec(blocks, 0, 2 * BLOCK, "AES");
      } finally {
        Arrays.fill(blocks, (byte) 0);
      }
    }

    /** Overwrites K1, then destroys K if it can be destroyed. */
    @Override
    public void destroy() throws DestroyFailedException {
      Arrays.fill(k1, (byte) 0);
      super.destroy();
    }
  }
}
