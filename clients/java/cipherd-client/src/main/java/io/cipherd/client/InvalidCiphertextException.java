package io.cipherd.client;

/**
 * A ciphertext broke the format (reason INVALID_CIPHERTEXT); from this client's parser, {@link
 * #defect()} says how.
 */
public class InvalidCiphertextException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  private final String defect;

  InvalidCiphertextException(ErrorDetails details) {
    this(details, "");
  }

  InvalidCiphertextException(ErrorDetails details, String defect) {
    super(details);
    this.defect = defect;
  }

  /**
   * How the ciphertext broke the format when this client's parser found it: one of
   * proto/testdata/envelopes.json's reasons (e.g. "version_invalid"); "" from the server, which
   * does not say.
   */
  public String defect() {
    return defect;
  }
}
