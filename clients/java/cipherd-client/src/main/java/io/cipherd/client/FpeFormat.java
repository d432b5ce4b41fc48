package io.cipherd.client;

/**
 * The shape of a format-preserving key's values, fixed at creation for every version: exactly one
 * of {@code alphabet} (2 to 65,536 distinct characters, in numeral order; "" for none) and {@code
 * template} (null for none). {@code versionPrefixLength} (alphabets only, 1 or 2) starts every
 * ciphertext with the key version, so decrypting needs none; {@code acceptSmallDomain} accepts
 * fewer than 1,000,000 possible values (at least 10,000: whoever may encrypt can tabulate them all;
 * a 16-digit card number needs it); {@code maskVisibleSuffix} is how many trailing characters
 * {@link FormattedValues#mask} shows (0 to 4; 0 with a template: the template's own).
 */
public record FpeFormat(
    String alphabet,
    FpeTemplate template,
    int versionPrefixLength,
    boolean acceptSmallDomain,
    int maskVisibleSuffix) {

  public FpeFormat {
    alphabet = alphabet == null ? "" : alphabet;
    if (alphabet.isEmpty() == (template == null)) {
      throw new IllegalArgumentException(
          "an FPE format is an alphabet or a template, exactly one of them");
    }
  }

  /** The template's format, with its defaults. */
  public static FpeFormat of(FpeTemplate template) {
    return new FpeFormat("", template, 0, false, 0);
  }

  /** The alphabet's format, with no version prefix. */
  public static FpeFormat ofAlphabet(String alphabet) {
    return new FpeFormat(alphabet, null, 0, false, 0);
  }

  /** This format accepting domains of 10,000 to 1,000,000 values. */
  public FpeFormat acceptingSmallDomain() {
    return new FpeFormat(alphabet, template, versionPrefixLength, true, maskVisibleSuffix);
  }

  /** This format with {@code length} (1 or 2) characters of version prefix. */
  public FpeFormat withVersionPrefix(int length) {
    return new FpeFormat(alphabet, template, length, acceptSmallDomain, maskVisibleSuffix);
  }

  /** This format showing {@code count} (0 to 4) trailing characters in masks. */
  public FpeFormat withMaskVisibleSuffix(int count) {
    return new FpeFormat(alphabet, template, versionPrefixLength, acceptSmallDomain, count);
  }

  io.cipherd.api.v1.FpeFormat toProto() {
    io.cipherd.api.v1.FpeFormat.Builder b =
        io.cipherd.api.v1.FpeFormat.newBuilder()
            .setVersionPrefixLength(versionPrefixLength)
            .setAcceptSmallDomain(acceptSmallDomain)
            .setMaskVisibleSuffix(maskVisibleSuffix);
    return template != null
        ? b.setTemplate(template.toProto()).build()
        : b.setAlphabet(alphabet).build();
  }

  static FpeFormat fromProto(io.cipherd.api.v1.FpeFormat f) {
    return new FpeFormat(
        f.getAlphabet(),
        f.hasTemplate() ? FpeTemplate.fromProto(f.getTemplate()) : null,
        f.getVersionPrefixLength(),
        f.getAcceptSmallDomain(),
        f.getMaskVisibleSuffix());
  }
}
