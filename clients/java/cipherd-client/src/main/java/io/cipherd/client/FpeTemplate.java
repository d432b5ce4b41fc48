package io.cipherd.client;

/**
 * A named shape of value for a format-preserving key (the proto enum's name without FPE_TEMPLATE_).
 * Characters a template keeps in place (separators, a card's first six and last four digits, a
 * phone number's "+" and country code) are never encrypted.
 */
public enum FpeTemplate {
  DIGITS,
  LOWER_ALPHANUMERIC,
  ALPHANUMERIC,
  CARD_NUMBER,
  CARD_NUMBER_LAST_FOUR,
  PHONE_NUMBER;

  io.cipherd.api.v1.FpeTemplate toProto() {
    return io.cipherd.api.v1.FpeTemplate.valueOf("FPE_TEMPLATE_" + name());
  }

  static FpeTemplate fromProto(io.cipherd.api.v1.FpeTemplate template) {
    return switch (template) {
      case FPE_TEMPLATE_UNSPECIFIED, UNRECOGNIZED -> null;
      default -> valueOf(template.name().substring("FPE_TEMPLATE_".length()));
    };
  }
}
