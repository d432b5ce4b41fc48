package io.cipherd.server.importjobs;

/**
 * How key material is wrapped for an import job: CKM_RSA_AES_KEY_WRAP with RSA-OAEP-SHA-256 and
 * AES-256 key wrap with padding (RFC 5649), for a job RSA key of {@link #modulusBits} bits.
 */
public enum WrappingAlgorithm {
  RSA_AES_KEY_WRAP_SHA256_3072(3072),
  RSA_AES_KEY_WRAP_SHA256_4096(4096);

  private final int modulusBits;

  WrappingAlgorithm(int modulusBits) {
    this.modulusBits = modulusBits;
  }

  /** The size of the job's RSA key. */
  public int modulusBits() {
    return modulusBits;
  }
}
