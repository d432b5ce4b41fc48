package io.cipherd.client;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

/**
 * Key material wrapped for an import job's public key with the JDK, as {@link
 * KeyAdmin#importKeyWrapped} sends it: the RSA-OAEP (SHA-256, MGF1 SHA-256, no label) encryption of
 * a fresh AES-256 key, followed by the AES key wrap with padding (RFC 5649, {@code
 * AES/KWP/NoPadding}) of the material under that key (CKM_RSA_AES_KEY_WRAP).
 */
public final class KeyWrapping {
  private static final SecureRandom RANDOM = new SecureRandom();

  private KeyWrapping() {}

  /** {@code keyMaterial} wrapped for {@code publicKeyPem} (a PEM "PUBLIC KEY"). */
  public static byte[] wrap(String publicKeyPem, byte[] keyMaterial) {
    byte[] ephemeral = new byte[32];
    RANDOM.nextBytes(ephemeral);
    try {
      Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
      rsa.init(
          Cipher.ENCRYPT_MODE,
          publicKey(publicKeyPem),
          new OAEPParameterSpec(
              "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT));
      byte[] head = rsa.doFinal(ephemeral);
      Cipher kwp = Cipher.getInstance("AES/KWP/NoPadding");
      kwp.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(ephemeral, "AES"));
      byte[] tail = kwp.doFinal(keyMaterial);
      byte[] blob = Arrays.copyOf(head, head.length + tail.length);
      System.arraycopy(tail, 0, blob, head.length, tail.length);
      return blob;
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot wrap for this import job's public key", e);
    } finally {
      Arrays.fill(ephemeral, (byte) 0);
    }
  }

  /** MySQL's fold of an AES_ENCRYPT key string into its AES-128 key. */
  static byte[] foldMysqlPassphrase(byte[] passphrase) {
    byte[] key = new byte[16];
    for (int i = 0; i < passphrase.length; i++) {
      key[i % 16] ^= passphrase[i];
    }
    return key;
  }

  private static RSAPublicKey publicKey(String pem) throws GeneralSecurityException {
    String body =
        pem.replace("-----BEGIN PUBLIC KEY-----", "")
            .replace("-----END PUBLIC KEY-----", "")
            .replaceAll("\\s", "");
    return (RSAPublicKey)
        KeyFactory.getInstance("RSA")
            .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
  }
}
