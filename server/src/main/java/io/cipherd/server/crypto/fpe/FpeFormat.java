package io.cipherd.server.crypto.fpe;

import io.cipherd.server.errors.InvalidArgumentException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The shape of the values a format-preserving key encrypts, fixed at creation for every version: an
 * alphabet or a {@link FormatTemplate}, the length of a version prefix (alphabets only), whether
 * domains under FF1's floor are walked ({@link FpeDomain}) and how many trailing characters a mask
 * shows. Immutable, validated on construction; equal when every setting is.
 */
public final class FpeFormat {
  /** The longest version prefix, in characters. */
  public static final int MAX_VERSION_PREFIX = 2;

  /** The most trailing characters a mask may show. */
  public static final int MAX_MASK_SUFFIX = 4;

  private final String alphabetText;
  private final FormatTemplate template;
  private final FpeAlphabet alphabet;
  private final int versionPrefixLength;
  private final boolean acceptSmallDomain;
  private final int maskVisibleSuffix;

  private FpeFormat(
      String alphabetText,
      FormatTemplate template,
      int versionPrefixLength,
      boolean acceptSmallDomain,
      int maskVisibleSuffix) {
    if (versionPrefixLength < 0 || versionPrefixLength > MAX_VERSION_PREFIX) {
      throw new InvalidArgumentException(
          "version_prefix_length is 0 to " + MAX_VERSION_PREFIX + ", not " + versionPrefixLength);
    }
    if (template != null && versionPrefixLength != 0) {
      throw new InvalidArgumentException(
          "version_prefix_length is for alphabets only: template "
              + template.storeName()
              + "'s shape has no room for a prefix; store the key_version beside the value");
    }
    if (maskVisibleSuffix < 0 || maskVisibleSuffix > MAX_MASK_SUFFIX) {
      throw new InvalidArgumentException(
          "mask_visible_suffix is 0 to " + MAX_MASK_SUFFIX + ", not " + maskVisibleSuffix);
    }
    this.alphabetText = alphabetText;
    this.template = template;
    this.alphabet = template == null ? FpeAlphabet.of(alphabetText) : templateAlphabet(template);
    this.versionPrefixLength = versionPrefixLength;
    this.acceptSmallDomain = acceptSmallDomain;
    this.maskVisibleSuffix = maskVisibleSuffix;
  }

  /** A format over {@code alphabet} (2 to 65,536 distinct code points, in numeral order). */
  public static FpeFormat ofAlphabet(
      String alphabet, int versionPrefixLength, boolean acceptSmallDomain, int maskVisibleSuffix) {
    Objects.requireNonNull(alphabet, "alphabet");
    return new FpeFormat(alphabet, null, versionPrefixLength, acceptSmallDomain, maskVisibleSuffix);
  }

  /** A format of {@code template}. */
  public static FpeFormat ofTemplate(
      FormatTemplate template, boolean acceptSmallDomain, int maskVisibleSuffix) {
    Objects.requireNonNull(template, "template");
    return new FpeFormat(null, template, 0, acceptSmallDomain, maskVisibleSuffix);
  }

  private static FpeAlphabet templateAlphabet(FormatTemplate template) {
    return switch (template) {
      case LOWER_ALPHANUMERIC -> FpeAlphabet.LOWER_ALPHANUMERIC;
      case ALPHANUMERIC -> FpeAlphabet.ALPHANUMERIC;
      case DIGITS, CARD_NUMBER, CARD_NUMBER_LAST_FOUR, PHONE_NUMBER -> FpeAlphabet.DIGITS;
    };
  }

  /** The alphabet as given; null for a template. */
  public String alphabetText() {
    return alphabetText;
  }

  /** The template; null for an alphabet. */
  public FormatTemplate template() {
    return template;
  }

  /** The characters encrypted characters are written in: the alphabet, or the template's. */
  public FpeAlphabet alphabet() {
    return alphabet;
  }

  public int versionPrefixLength() {
    return versionPrefixLength;
  }

  public boolean acceptSmallDomain() {
    return acceptSmallDomain;
  }

  /** The mask suffix as set: 0 means the template's own ({@link #maskSuffix}). */
  public int maskVisibleSuffix() {
    return maskVisibleSuffix;
  }

  /** How many trailing characters a mask shows: the setting, else the template's default. */
  public int maskSuffix() {
    return maskVisibleSuffix == 0 && template != null
        ? template.defaultMaskSuffix()
        : maskVisibleSuffix;
  }

  /** The highest key version a value's prefix can name; unbounded without a prefix. */
  public int maxVersion() {
    if (versionPrefixLength == 0) {
      return Integer.MAX_VALUE;
    }
    BigInteger max = BigInteger.valueOf(alphabet.radix()).pow(versionPrefixLength);
    return max.min(BigInteger.valueOf(Integer.MAX_VALUE)).intValueExact() - 1;
  }

  /**
   * The format as key stores keep it, one line: {@code template=card_number} or {@code
   * alphabet=<base64url of the UTF-8 alphabet>}, then {@code ;prefix=N;small=true|false;suffix=N}.
   */
  public String storeText() {
    String shape =
        template != null
            ? "template=" + template.storeName()
            : "alphabet="
                + Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(alphabetText.getBytes(StandardCharsets.UTF_8));
    return shape
        + ";prefix="
        + versionPrefixLength
        + ";small="
        + acceptSmallDomain
        + ";suffix="
        + maskVisibleSuffix;
  }

  /** The format {@link #storeText} wrote; throws {@link IllegalArgumentException} if malformed. */
  public static FpeFormat fromStoreText(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : text.split(";")) {
      int eq = part.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("malformed FF1 format field '" + part + "'");
      }
      fields.put(part.substring(0, eq), part.substring(eq + 1));
    }
    try {
      int prefix = Integer.parseInt(required(fields, "prefix"));
      boolean small = Boolean.parseBoolean(required(fields, "small"));
      int suffix = Integer.parseInt(required(fields, "suffix"));
      if (fields.containsKey("template")) {
        FormatTemplate template = FormatTemplate.fromStoreName(fields.get("template"));
        if (template == null) {
          throw new IllegalArgumentException(
              "unknown FF1 template '" + fields.get("template") + "'");
        }
        return ofTemplate(template, small, suffix);
      }
      String alphabet =
          new String(
              Base64.getUrlDecoder().decode(required(fields, "alphabet")), StandardCharsets.UTF_8);
      return ofAlphabet(alphabet, prefix, small, suffix);
    } catch (InvalidArgumentException e) {
      throw new IllegalArgumentException("stored FF1 format is invalid: " + e.getMessage(), e);
    }
  }

  private static String required(Map<String, String> fields, String name) {
    String value = fields.get(name);
    if (value == null) {
      throw new IllegalArgumentException("stored FF1 format has no " + name);
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FpeFormat other
        && Objects.equals(alphabetText, other.alphabetText)
        && template == other.template
        && versionPrefixLength == other.versionPrefixLength
        && acceptSmallDomain == other.acceptSmallDomain
        && maskVisibleSuffix == other.maskVisibleSuffix;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        alphabetText, template, versionPrefixLength, acceptSmallDomain, maskVisibleSuffix);
  }

  @Override
  public String toString() {
    return (template != null ? template.storeName() : "alphabet of " + alphabet.radix())
        + (versionPrefixLength > 0 ? ", prefix " + versionPrefixLength : "")
        + (acceptSmallDomain ? ", small domains" : "")
        + ", mask suffix "
        + maskSuffix();
  }
}
