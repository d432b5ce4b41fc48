package io.cipherd.server.crypto;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.crypto.SecretKey;

/**
 * The cipher modes of encryption keys, as ciphertext headers name them. Each mode is one member of
 * a {@link ModeFamily}, whose class owns the mode's payload layout, key preparation and seal/open;
 * what this enum answers, it asks the family.
 *
 * <p>Adding a mode: its family class (a new one, or a new member of an existing one), a constant
 * here naming the family's factory, its value in the proto's {@code Mode} ({@code MODE_} and the
 * header name, which {@code api.ModeProtos} maps by name), and its envelope vectors in {@code
 * proto/testdata/envelopes.json}.
 */
public enum CipherMode {
  GCM("gcm", JceAead::aesGcm),
  CHACHA("chacha", JceAead::chaCha20Poly1305),
  CBC("cbc", JceUnauthenticated::cbc),
  CTR("ctr", JceUnauthenticated::ctr),
  CFB("cfb", JceUnauthenticated::cfb),
  OFB("ofb", JceUnauthenticated::ofb),
  ECB("ecb", JceUnauthenticated::ecb),
  XGCM("xgcm", XaesGcm::new),
  SIV("siv", Siv::new);

  private static final List<CipherMode> POOLED =
      Arrays.stream(values()).filter(mode -> mode.transformation() != null).toList();

  private final String headerName;
  private final ModeFamily family;

  CipherMode(String headerName, Function<CipherMode, ModeFamily> family) {
    this.headerName = headerName;
    this.family = family.apply(this);
  }

  /** The mode's name in a ciphertext header, e.g. {@code gcm}. */
  public String headerName() {
    return headerName;
  }

  /** The family object that seals and opens this mode's payloads. */
  public ModeFamily family() {
    return family;
  }

  /**
   * The JCE transformation of this mode's pooled ciphers, for {@code Cipher.getInstance}; null if
   * the mode uses none (siv, which Tink implements).
   */
  public String transformation() {
    return family.transformation();
  }

  /** The JCE key algorithm, for {@code SecretKeySpec}. */
  public String keyAlgorithm() {
    return family.keyAlgorithm();
  }

  /** Bytes of IV or nonce at the start of the payload; 0 for ecb and siv. */
  public int ivLength() {
    return family.ivLength();
  }

  /**
   * Bytes of authentication tag (at the end; at the start for siv); 0 for unauthenticated modes.
   */
  public int tagLength() {
    return family.tagLength();
  }

  /** Whether the mode authenticates its ciphertext and associated data. */
  public boolean isAead() {
    return family.tagLength() > 0;
  }

  /** Whether the plaintext is PKCS#7-padded to whole AES blocks. */
  public boolean isPadded() {
    return family.isPadded();
  }

  /**
   * Length of the encrypted payload (IV, ciphertext, tag) for a plaintext of {@code
   * plaintextLength} bytes.
   */
  public int payloadLength(int plaintextLength) {
    return family.payloadLength(plaintextLength);
  }

  /**
   * Why a payload of {@code length} bytes cannot be this mode's, or null if its length is
   * plausible.
   */
  public String payloadLengthProblem(int length) {
    return family.payloadLengthProblem(length);
  }

  /** The key sizes this mode takes, in bits. */
  public Set<Integer> keySizesBits() {
    return family.keySizesBits();
  }

  /** Whether keys of {@code bits} bits are valid for this mode. */
  public boolean acceptsKeySize(int bits) {
    return family.keySizesBits().contains(bits);
  }

  /** The key size when a caller gives none: 256 bits if the mode takes them, else its only size. */
  public int defaultKeySizeBits() {
    Set<Integer> sizes = family.keySizesBits();
    return sizes.contains(256) ? 256 : sizes.iterator().next();
  }

  /**
   * How many messages one key version may seal before its random nonces risk repeating: 2³⁰ for
   * random 96-bit nonces (gcm, chacha); 0 for no limit.
   */
  public long encryptionLimit() {
    return family.encryptionLimit();
  }

  /**
   * A key version's bytes ready for this mode, precomputing what the mode derives once per version
   * (xgcm's subkey, siv's CMAC subkeys); other modes use {@code key} as it is.
   */
  public SecretKey prepare(SecretKey key) {
    return family.prepare(key);
  }

  /** The modes whose ciphers the pools hold: every mode with a {@link #transformation}. */
  public static List<CipherMode> pooled() {
    return POOLED;
  }

  /** Every mode's header name, comma-separated, for error messages. */
  public static String headerNames() {
    return Arrays.stream(values()).map(CipherMode::headerName).collect(Collectors.joining(", "));
  }

  /** The mode named {@code headerName} in a ciphertext header, or null if there is none. */
  public static CipherMode fromHeaderName(String headerName) {
    for (CipherMode mode : values()) {
      if (mode.headerName.equals(headerName)) {
        return mode;
      }
    }
    return null;
  }
}
