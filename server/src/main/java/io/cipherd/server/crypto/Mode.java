package io.cipherd.server.crypto;

import java.util.Set;

/**
 * A cipher mode of one key version, with everything the envelope format and the JCE need to know
 * about it.
 */
public enum Mode {
  GCM("gcm", "AES/GCM/NoPadding", "AES", 12, 16, Set.of(128, 192, 256)),
  CHACHA("chacha", "ChaCha20-Poly1305", "ChaCha20", 12, 16, Set.of(256)),
  CBC("cbc", "AES/CBC/PKCS5Padding", "AES", 16, 0, Set.of(128, 192, 256)),
  CTR("ctr", "AES/CTR/NoPadding", "AES", 16, 0, Set.of(128, 192, 256)),
  CFB("cfb", "AES/CFB/NoPadding", "AES", 16, 0, Set.of(128, 192, 256)),
  OFB("ofb", "AES/OFB/NoPadding", "AES", 16, 0, Set.of(128, 192, 256)),
  ECB("ecb", "AES/ECB/PKCS5Padding", "AES", 0, 0, Set.of(128, 192, 256)),
  /**
   * XAES-256-GCM (c2sp.org/XAES-256-GCM): a 24-byte nonce whose first half derives a per-message
   * AES-256-GCM key, so random nonces need no per-key message limit. The pooled cipher is the GCM
   * one.
   */
  XGCM("xgcm", "AES/GCM/NoPadding", "AES", 24, 16, Set.of(256)),
  /**
   * AES-SIV (RFC 5297) with a 512-bit key: deterministic, the 16-byte synthetic IV first. Tink
   * implements it (the JCE has no SIV), so the pool is never used for it.
   */
  SIV("siv", "AES/CTR/NoPadding", "AES", 0, 16, Set.of(512)),
  /**
   * An index key: HMAC-SHA-256 for blind indexes. It never encrypts and has no ciphertext header.
   */
  HMAC("hmac", "HmacSHA256", "HmacSHA256", 0, 0, Set.of(256)),
  /**
   * A legacy key's version: data encrypted before cipherd, decrypt-only, for ReEncrypt. Its cipher,
   * key sizes and IV are the version's {@code crypto.legacy.LegacyFormat}, not this mode's; it
   * never appears in a ciphertext header, and "legacy" labels its decrypts in metrics.
   */
  LEGACY("legacy", "", "", 0, 0, Set.of());

  /** What a key's versions are for. All versions of one key are of one kind. */
  public enum Kind {
    /** Encrypts and decrypts cipherd ciphertexts. */
    CIPHER("an encryption key"),
    /** Computes blind indexes only. */
    INDEX("an index key"),
    /** Decrypts data made before cipherd, for ReEncrypt only. */
    LEGACY("a legacy key");

    private final String description;

    Kind(String description) {
      this.description = description;
    }

    /** The kind as error messages say it, e.g. "an index key". */
    public String description() {
      return description;
    }
  }

  private static final int AES_BLOCK = 16;

  private final String headerName;
  private final String transformation;
  private final String keyAlgorithm;
  private final int ivLength;
  private final int tagLength;
  private final Set<Integer> keySizesBits;

  Mode(
      String headerName,
      String transformation,
      String keyAlgorithm,
      int ivLength,
      int tagLength,
      Set<Integer> keySizesBits) {
    this.headerName = headerName;
    this.transformation = transformation;
    this.keyAlgorithm = keyAlgorithm;
    this.ivLength = ivLength;
    this.tagLength = tagLength;
    this.keySizesBits = keySizesBits;
  }

  /** The mode's name in a ciphertext header, e.g. {@code gcm}. */
  public String headerName() {
    return headerName;
  }

  /** The JCE transformation given to {@code Cipher.getInstance}. */
  public String transformation() {
    return transformation;
  }

  /** The JCE key algorithm, for {@code SecretKeySpec}. */
  public String keyAlgorithm() {
    return keyAlgorithm;
  }

  /**
   * Bytes of IV or nonce at the start of the payload; 0 for ECB and SIV (whose synthetic IV is its
   * tag).
   */
  public int ivLength() {
    return ivLength;
  }

  /**
   * Bytes of authentication tag (at the end; at the start for SIV); 0 for unauthenticated modes.
   */
  public int tagLength() {
    return tagLength;
  }

  /** Whether the mode authenticates its ciphertext and associated data. */
  public boolean isAead() {
    return tagLength > 0;
  }

  /**
   * Whether versions in this mode encrypt and decrypt; false for index keys, which only hash, and
   * legacy keys.
   */
  public boolean isCipher() {
    return kind() == Kind.CIPHER;
  }

  /** The kind of key versions in this mode belong to. */
  public Kind kind() {
    return switch (this) {
      case HMAC -> Kind.INDEX;
      case LEGACY -> Kind.LEGACY;
      default -> Kind.CIPHER;
    };
  }

  /** Whether equal plaintexts and contexts give equal ciphertexts (no random IV): siv only. */
  public boolean isDeterministic() {
    return this == SIV;
  }

  /**
   * The key size when a caller gives none: the largest this mode takes, 256 bits except for siv.
   */
  public int defaultKeySizeBits() {
    return keySizesBits.contains(256) ? 256 : keySizesBits.iterator().next();
  }

  /** Whether the plaintext is PKCS#7-padded to whole AES blocks. */
  public boolean isPadded() {
    return this == CBC || this == ECB;
  }

  /** Whether keys of {@code bits} bits are valid for this mode. */
  public boolean acceptsKeySize(int bits) {
    return keySizesBits.contains(bits);
  }

  /** The key sizes this mode takes, in bits, for error messages. */
  public Set<Integer> keySizesBits() {
    return keySizesBits;
  }

  /**
   * Length of the encrypted payload (IV, ciphertext, tag) for a plaintext of {@code
   * plaintextLength} bytes.
   */
  public int payloadLength(int plaintextLength) {
    int body = isPadded() ? (plaintextLength / AES_BLOCK + 1) * AES_BLOCK : plaintextLength;
    return ivLength + body + tagLength;
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
    if (isPadded() && (body == 0 || body % AES_BLOCK != 0)) {
      return "payload of "
          + headerName
          + " must hold whole 16-byte blocks after the IV, got "
          + body
          + " bytes";
    }
    return null;
  }

  /** The modes that encrypt: every mode but {@link #HMAC} and {@link #LEGACY}. */
  public static java.util.List<Mode> ciphers() {
    return java.util.Arrays.stream(values()).filter(Mode::isCipher).toList();
  }

  /** Every cipher mode's header name, comma-separated, for error messages. */
  public static String headerNames() {
    return java.util.Arrays.stream(values())
        .filter(Mode::isCipher)
        .map(Mode::headerName)
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /** The cipher mode named {@code headerName} in a ciphertext header, or null if there is none. */
  public static Mode fromHeaderName(String headerName) {
    Mode mode = fromName(headerName);
    return mode != null && mode.isCipher() ? mode : null;
  }

  /** The mode of any kind named {@code name} (as stores record it), or null if there is none. */
  public static Mode fromName(String name) {
    for (Mode mode : values()) {
      if (mode.headerName.equals(name)) {
        return mode;
      }
    }
    return null;
  }
}
