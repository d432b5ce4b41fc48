package io.cipherd.client;

import io.grpc.Status;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A ciphertext "&lt;NAME/vVERSION:MODE&gt;BASE64", or a subject-bound "&lt;NAME/s:MODE&gt;BASE64"
 * (proto/README.md) parsed locally: route a ciphertext by its key or check its version without a
 * call. The only place this client knows the format. A {@code subjectBound} one (sealed under a
 * data subject's key) names no version ({@code keyVersion} 0); its payload starts with the {@value
 * #SUBJECT_REF_SIZE}-byte reference to the subject's key, then the mode's payload.
 */
public record Envelope(
    String keyName, int keyVersion, Mode mode, byte[] payload, boolean subjectBound) {
  /**
   * The length of the subject-key reference that starts a subject-bound payload: random bytes that
   * name the subject's key in the server's store, never the subject.
   */
  public static final int SUBJECT_REF_SIZE = 16;

  private static final Pattern KEY_NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");
  private static final Pattern VERSION = Pattern.compile("v[1-9][0-9]{0,8}");
  private static final Pattern BASE64 =
      Pattern.compile(
          "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)");

  /** A key-bound ciphertext. */
  public Envelope(String keyName, int keyVersion, Mode mode, byte[] payload) {
    this(keyName, keyVersion, mode, payload, false);
  }

  /** The header, "&lt;" through "&gt;", which AEAD modes authenticate. */
  public String header() {
    String version = subjectBound ? "s" : "v" + keyVersion;
    return "<" + keyName + "/" + version + ":" + mode.headerName() + ">";
  }

  /** The ciphertext text; {@code parse(text).format().equals(text)} for every valid text. */
  public String format() {
    return header() + Base64.getEncoder().encodeToString(payload);
  }

  @Override
  public String toString() {
    return "Envelope[" + header() + ", " + payload.length + " payload bytes]";
  }

  /**
   * Parses a ciphertext, throwing {@link InvalidCiphertextException} with the defect (one of
   * envelopes.json's reasons) when it breaks the format.
   */
  public static Envelope parse(String text) {
    if (text.isEmpty()) {
      throw reject("empty", "it is empty");
    }
    if (!text.startsWith("<")) {
      throw reject("header_missing", "it must start with '<'");
    }
    int end = text.indexOf('>');
    if (end < 0) {
      throw reject("header_unterminated", "the header has no closing '>'");
    }
    String header = text.substring(1, end);
    int slash = header.indexOf('/');
    int colon = slash < 0 ? -1 : header.indexOf(':', slash);
    if (slash < 0 || colon < 0) {
      throw reject("header_malformed", "the header must be <name/vVERSION:mode>");
    }
    String name = header.substring(0, slash);
    String version = header.substring(slash + 1, colon);
    if (!KEY_NAME.matcher(name).matches()) {
      throw reject("key_name_invalid", "the key name must match [a-z0-9][a-z0-9_-]{0,63}");
    }
    boolean subjectBound = version.equals("s");
    if (!subjectBound && !VERSION.matcher(version).matches()) {
      throw reject(
          "version_invalid",
          "version in header must be at least 1, without leading zeros, or s (subject-bound)");
    }
    Mode mode = Mode.fromHeaderName(header.substring(colon + 1));
    if (mode == null || !mode.inHeaders()) {
      throw reject("mode_unknown", "unknown mode in header");
    }
    if (subjectBound && mode != Mode.GCM && mode != Mode.CHACHA && mode != Mode.XGCM) {
      throw reject("mode_unknown", "a subject-bound header's mode must be gcm, chacha or xgcm");
    }
    String encoded = text.substring(end + 1);
    if (encoded.isEmpty()) {
      throw reject("payload_empty", "nothing follows the header");
    }
    if (!BASE64.matcher(encoded).matches()) {
      throw reject("payload_not_base64", "the payload is not padded standard base64");
    }
    byte[] payload = Base64.getDecoder().decode(encoded);
    if (!Base64.getEncoder().encodeToString(payload).equals(encoded)) {
      throw reject("payload_not_canonical", "the payload's base64 is not canonical");
    }
    if (!mode.payloadLengthOk(payload.length - (subjectBound ? SUBJECT_REF_SIZE : 0))) {
      throw reject(
          "payload_length_invalid",
          "a "
              + (subjectBound ? "subject-bound " : "")
              + mode.headerName()
              + " payload cannot be "
              + payload.length
              + " bytes long");
    }
    return subjectBound
        ? new Envelope(name, 0, mode, payload, true)
        : new Envelope(name, Integer.parseInt(version.substring(1)), mode, payload);
  }

  // The message names the problem only: a ciphertext is data and must not reach a log line.
  private static InvalidCiphertextException reject(String defect, String problem) {
    return new InvalidCiphertextException(
        new ErrorDetails(
            Status.Code.INVALID_ARGUMENT,
            "INVALID_CIPHERTEXT",
            "invalid ciphertext: " + problem,
            Map.of(),
            null),
        defect);
  }
}
