package io.cipherd.server.crypto;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The cipher modes of encryption keys, one value per algorithm as Tink has a {@code Parameters} per
 * algorithm: each constant states everything about its mode (its name in ciphertext headers, JCE
 * names, key sizes, payload layout {@code iv ‖ body ‖ tag}, message limit) and holds the {@link
 * ModeFamily} that seals and opens its payloads with those parameters.
 *
 * <p>Adding a mode: its family class (a new one, or a new member of an existing one), a constant
 * here with its parameters, its value in the proto's {@code Mode} ({@code MODE_} and the header
 * name, which {@code api.ModeProtos} maps by name), and its envelope vectors in {@code
 * proto/testdata/envelopes.json}.
 */
public enum CipherMode implements KeyType {
  GCM(
      "gcm",
      "AES/GCM/NoPadding",
      "AES",
      Set.of(128, 192, 256),
      /* ivLength= */ 12,
      /* tagLength= */ 16,
      /* padded= */ false,
      JceAead.RANDOM_96_BIT_NONCE_LIMIT,
      JceAead::aesGcm),
  CHACHA(
      "chacha",
      "ChaCha20-Poly1305",
      "ChaCha20",
      Set.of(256),
      /* ivLength= */ 12,
      /* tagLength= */ 16,
      /* padded= */ false,
      JceAead.RANDOM_96_BIT_NONCE_LIMIT,
      JceAead::chaCha20Poly1305),
  CBC(
      "cbc",
      "AES/CBC/PKCS5Padding",
      "AES",
      Set.of(128, 192, 256),
      /* ivLength= */ 16,
      /* tagLength= */ 0,
      /* padded= */ true,
      /* encryptionLimit= */ 0,
      JceUnauthenticated::new),
  CTR(
      "ctr",
      "AES/CTR/NoPadding",
      "AES",
      Set.of(128, 192, 256),
      /* ivLength= */ 16,
      /* tagLength= */ 0,
      /* padded= */ false,
      /* encryptionLimit= */ 0,
      JceUnauthenticated::new),
  /** AES-CFB with 128-bit feedback. */
  CFB(
      "cfb",
      "AES/CFB/NoPadding",
      "AES",
      Set.of(128, 192, 256),
      /* ivLength= */ 16,
      /* tagLength= */ 0,
      /* padded= */ false,
      /* encryptionLimit= */ 0,
      JceUnauthenticated::new),
  OFB(
      "ofb",
      "AES/OFB/NoPadding",
      "AES",
      Set.of(128, 192, 256),
      /* ivLength= */ 16,
      /* tagLength= */ 0,
      /* padded= */ false,
      /* encryptionLimit= */ 0,
      JceUnauthenticated::new),
  /** AES-ECB: no IV, so equal blocks encrypt equally; the key's policy must allow encrypting. */
  ECB(
      "ecb",
      "AES/ECB/PKCS5Padding",
      "AES",
      Set.of(128, 192, 256),
      /* ivLength= */ 0,
      /* tagLength= */ 0,
      /* padded= */ true,
      /* encryptionLimit= */ 0,
      JceUnauthenticated::new),
  /** XAES-256-GCM: its pooled ciphers are AES-GCM's, under a key derived per message. */
  XGCM(
      "xgcm",
      "AES/GCM/NoPadding",
      "AES",
      Set.of(256),
      /* ivLength= */ 24,
      /* tagLength= */ 16,
      /* padded= */ false,
      /* encryptionLimit= */ 0,
      XaesGcm::new),
  /** AES-SIV: Tink's, so no JCE transformation; the 16-byte synthetic IV is its tag, first. */
  SIV(
      "siv",
      /* transformation= */ null,
      "AES",
      Set.of(512),
      /* ivLength= */ 0,
      /* tagLength= */ 16,
      /* padded= */ false,
      /* encryptionLimit= */ 0,
      Siv::new);

  private static final int AES_BLOCK = 16;

  private static final List<CipherMode> POOLED =
      Arrays.stream(values()).filter(mode -> mode.transformation != null).toList();

  private final String headerName;
  private final String transformation;
  private final String keyAlgorithm;
  private final Set<Integer> keySizesBits;
  private final int ivLength;
  private final int tagLength;
  private final boolean padded;
  private final long encryptionLimit;
  private final ModeFamily family;

  CipherMode(
      String headerName,
      String transformation,
      String keyAlgorithm,
      Set<Integer> keySizesBits,
      int ivLength,
      int tagLength,
      boolean padded,
      long encryptionLimit,
      Function<CipherMode, ModeFamily> family) {
    this.headerName = headerName;
    this.transformation = transformation;
    this.keyAlgorithm = keyAlgorithm;
    this.keySizesBits = keySizesBits;
    this.ivLength = ivLength;
    this.tagLength = tagLength;
    this.padded = padded;
    this.encryptionLimit = encryptionLimit;
    // Last: the family reads the parameters above.
    this.family = family.apply(this);
  }

  /** The mode's name in a ciphertext header, e.g. {@code gcm}. */
  public String headerName() {
    return headerName;
  }

  /** An encryption key's version in this mode is recorded and labelled by its header name. */
  @Override
  public String typeName() {
    return headerName;
  }

  @Override
  public KeyKind kind() {
    return KeyKind.ENCRYPTION;
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
    return transformation;
  }

  /** The JCE key algorithm, for {@code SecretKeySpec}. */
  @Override
  public String keyAlgorithm() {
    return keyAlgorithm;
  }

  /** The key sizes this mode takes, in bits. */
  @Override
  public Set<Integer> keySizesBits() {
    return keySizesBits;
  }

  /** Bytes of IV or nonce at the start of the payload; 0 for ecb and siv. */
  public int ivLength() {
    return ivLength;
  }

  /**
   * Bytes of authentication tag (at the end; at the start for siv); 0 for unauthenticated modes.
   */
  public int tagLength() {
    return tagLength;
  }

  /** Whether the mode authenticates its ciphertext and associated data. */
  public boolean isAead() {
    return tagLength > 0;
  }

  /** Whether the plaintext is PKCS#7-padded to whole AES blocks. */
  public boolean isPadded() {
    return padded;
  }

  /**
   * How many messages one key version may seal before its random nonces risk repeating: 2³⁰ for
   * random 96-bit nonces (gcm, chacha); 0 for no limit.
   */
  public long encryptionLimit() {
    return encryptionLimit;
  }

  /**
   * Length of the encrypted payload (IV, ciphertext, tag) for a plaintext of {@code
   * plaintextLength} bytes.
   */
  public int payloadLength(int plaintextLength) {
    int body = padded ? (plaintextLength / AES_BLOCK + 1) * AES_BLOCK : plaintextLength;
    return ivLength + body + tagLength;
  }

  /**
   * The exact length of the plaintext in a payload of {@code payloadLength} bytes that passed
   * {@link #payloadLengthProblem}, for a mode without padding; -1 for a padded mode, whose
   * plaintext's length is known only once it is decrypted.
   */
  public int plaintextLength(int payloadLength) {
    return padded ? -1 : payloadLength - ivLength - tagLength;
  }

  /**
   * Why a payload of {@code length} bytes cannot be this mode's, or null if its length is
   * plausible.
   */
  public String payloadLengthProblem(int length) {
    int body = length - ivLength - tagLength;
    if (body < 0) {
      return "payload is "
          + length
          + " bytes, shorter than the "
          + (ivLength + tagLength)
          + " bytes of IV and tag that "
          + headerName
          + " needs";
    }
    if (padded && (body == 0 || body % AES_BLOCK != 0)) {
      return "payload of "
          + headerName
          + " must hold whole 16-byte blocks after the IV, got "
          + body
          + " bytes";
    }
    return null;
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
