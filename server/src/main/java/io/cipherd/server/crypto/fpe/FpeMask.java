package io.cipherd.server.crypto.fpe;

/**
 * The display mask of a plaintext of a format: separators (and a phone number's "+" and country
 * code) as they are, the last {@link FpeFormat#maskSuffix} data characters shown, every other one
 * "•" (U+2022). A value of no more than twice the suffix's data characters shows none of them, so a
 * mask never shows most of a short value.
 */
public final class FpeMask {
  /** What a hidden character shows as. */
  public static final int HIDDEN = '\u2022';

  private FpeMask() {}

  /** The mask of {@code plaintext}, a value of {@code format}. */
  public static String of(FpeFormat format, String plaintext) {
    ValueLayout layout = ValueLayout.of(format, plaintext);
    int suffix = format.maskSuffix();
    int shown = layout.data.length > 2 * suffix ? suffix : 0;
    int[] out = layout.codePoints.clone();
    for (int i = 0; i < layout.data.length - shown; i++) {
      out[layout.data[i]] = HIDDEN;
    }
    return new String(out, 0, out.length);
  }
}
