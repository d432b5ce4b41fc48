package io.cipherd.server.crypto.fpe;

import java.util.Locale;

/**
 * A named shape of format-preserving value: what it encrypts, what it keeps in place, and how much
 * of a plaintext its mask shows by default.
 */
public enum FormatTemplate {
  /** 0-9, every character encrypted. */
  DIGITS(0),
  /** 0-9 then a-z, every character encrypted. */
  LOWER_ALPHANUMERIC(0),
  /** 0-9, A-Z then a-z, every character encrypted. */
  ALPHANUMERIC(0),
  /** 12 to 19 digits; the first six and the last four kept, Luhn residue kept; ' ' and '-' kept. */
  CARD_NUMBER(4),
  /** As {@link #CARD_NUMBER}, keeping only the last four digits. */
  CARD_NUMBER_LAST_FOUR(4),
  /** "+", an E.164 country calling code (kept), up to 14 digits; ' ', '-', '.', '(', ')' kept. */
  PHONE_NUMBER(2);

  private final int defaultMaskSuffix;

  FormatTemplate(int defaultMaskSuffix) {
    this.defaultMaskSuffix = defaultMaskSuffix;
  }

  /** How many trailing characters a mask shows when the format sets none. */
  public int defaultMaskSuffix() {
    return defaultMaskSuffix;
  }

  /** The name key stores record, e.g. {@code card_number}. */
  public String storeName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The template stored as {@code name}, or null. */
  public static FormatTemplate fromStoreName(String name) {
    for (FormatTemplate template : values()) {
      if (template.storeName().equals(name)) {
        return template;
      }
    }
    return null;
  }
}
