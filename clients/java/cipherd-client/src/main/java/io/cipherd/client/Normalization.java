package io.cipherd.client;

/**
 * How a blind index makes a value canonical first (proto/README.md, "Blind indexes"): {@code trim}
 * Unicode White_Space at both ends, then {@code nfkc}, then {@code casefold}. Store and query with
 * the same one, e.g. one constant per column; any step needs the value to be UTF-8 text.
 */
public record Normalization(boolean trim, boolean nfkc, boolean casefold) {
  /** The value's bytes as they are. */
  public static final Normalization NONE = new Normalization(false, false, false);

  /** Trim, NFKC and case folding: the usual choice for emails and names. */
  public static final Normalization TEXT = new Normalization(true, true, true);

  io.cipherd.api.v1.Normalization toProto() {
    return io.cipherd.api.v1.Normalization.newBuilder()
        .setTrim(trim)
        .setNfkc(nfkc)
        .setCasefold(casefold)
        .build();
  }
}
