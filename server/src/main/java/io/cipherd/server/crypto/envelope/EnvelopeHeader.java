package io.cipherd.server.crypto.envelope;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code <NAME/vVERSION:MODE>} prefix of a ciphertext: which key version and mode decrypt it;
 * or the {@code <NAME/s:MODE>} prefix of a subject-bound one, sealed under a subject's own key
 * (wrapped under whichever version of NAME the subject store holds it under), whose payload starts
 * with the 16-byte subject reference.
 *
 * <p>Its ASCII bytes are also the first part of the associated data of AEAD modes, so a ciphertext
 * moved to another name, version or mode fails to decrypt. As the key version it names, it is what
 * encryptions and decryptions report to metrics; a subject-bound header names version 0.
 */
public final class EnvelopeHeader extends KeyVersionRef {
  /** The key-name grammar of the ciphertext format, also enforced when keys are created. */
  public static final String KEY_NAME_SYNTAX = "[a-z0-9][a-z0-9_-]{0,63}";

  /** The longest name {@link #KEY_NAME_SYNTAX} allows. */
  public static final int MAX_KEY_NAME_LENGTH = 64;

  /** The length of the subject reference that leads a subject-bound payload. */
  public static final int SUBJECT_REF_LENGTH = 16;

  private final CipherMode mode;
  private final boolean subjectBound;
  private final String text;
  private final byte[] aad;
  private final ByteString ascii;

  /**
   * Validates and builds a header; throws {@link IllegalArgumentException} for a bad name or
   * version.
   */
  public EnvelopeHeader(String keyName, int version, CipherMode mode) {
    this(checkedName(keyName), checkedVersion(version), mode, false);
  }

  private EnvelopeHeader(String keyName, int version, CipherMode mode, boolean subjectBound) {
    super(keyName, version, mode);
    this.mode = mode;
    this.subjectBound = subjectBound;
    this.text =
        "<" + keyName + (subjectBound ? "/s" : "/v" + version) + ":" + mode.headerName() + ">";
    this.aad = text.getBytes(StandardCharsets.US_ASCII);
    this.ascii = UnsafeByteOperations.unsafeWrap(aad);
  }

  /**
   * The header {@code <keyName/s:mode>} of a subject-bound ciphertext; throws {@link
   * IllegalArgumentException} for a bad name or a mode that cannot bind subjects ({@link
   * #bindsSubjects}).
   */
  public static EnvelopeHeader subjectBound(String keyName, CipherMode mode) {
    if (!bindsSubjects(mode)) {
      throw new IllegalArgumentException(
          mode.headerName() + " cannot bind subjects; only " + SUBJECT_MODES + " can");
    }
    return new EnvelopeHeader(checkedName(keyName), 0, mode, true);
  }

  /** The modes a subject-bound ciphertext may use, as messages name them. */
  public static final String SUBJECT_MODES = "gcm, chacha and xgcm";

  /**
   * Whether {@code mode} can seal subject-bound data: the AEAD modes with a random nonce (gcm,
   * chacha, xgcm). siv is deterministic and the unauthenticated modes bind no reference.
   */
  public static boolean bindsSubjects(CipherMode mode) {
    return mode == CipherMode.GCM || mode == CipherMode.CHACHA || mode == CipherMode.XGCM;
  }

  /** Whether this is a subject-bound header, {@code <NAME/s:MODE>}; its version is then 0. */
  public boolean isSubjectBound() {
    return subjectBound;
  }

  /**
   * Why a payload of {@code length} bytes cannot follow this header, or null if its length is
   * plausible: the mode's rule, after the subject reference for a subject-bound header.
   */
  public String payloadLengthProblem(int length) {
    if (!subjectBound) {
      return mode.payloadLengthProblem(length);
    }
    if (length < SUBJECT_REF_LENGTH) {
      return "payload is "
          + length
          + " bytes, shorter than the "
          + SUBJECT_REF_LENGTH
          + "-byte subject reference a subject-bound ciphertext starts with";
    }
    String problem = mode.payloadLengthProblem(length - SUBJECT_REF_LENGTH);
    return problem == null ? null : "after the 16-byte subject reference, " + problem;
  }

  private static String checkedName(String keyName) {
    if (!isValidKeyName(keyName)) {
      throw new IllegalArgumentException("key name must match " + KEY_NAME_SYNTAX);
    }
    return keyName;
  }

  private static int checkedVersion(int version) {
    if (version < 1) {
      throw new IllegalArgumentException("key version must be at least 1, got " + version);
    }
    return version;
  }

  /**
   * Throws {@link InvalidArgumentException} unless {@code name} is a valid key name. The message
   * gives the syntax and the length, never the name: it may be megabytes a caller sent.
   */
  public static void checkKeyName(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidArgumentException("key_name is required");
    }
    if (!isValidKeyName(name)) {
      throw new InvalidArgumentException(
          "key_name must match " + KEY_NAME_SYNTAX + " (got " + name.length() + " characters)");
    }
  }

  /** Whether {@code name} matches {@link #KEY_NAME_SYNTAX}. */
  public static boolean isValidKeyName(String name) {
    // By hand rather than with the regex: it runs on every checked call, and a name of megabytes
    // is refused after looking at its length.
    if (name == null || name.isEmpty() || name.length() > MAX_KEY_NAME_LENGTH) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (!alphanumeric && (i == 0 || (c != '_' && c != '-'))) {
        return false;
      }
    }
    return true;
  }

  public CipherMode mode() {
    return mode;
  }

  /**
   * The header as it starts a ciphertext, e.g. {@code <payments/v3:gcm>} or {@code <users/s:gcm>}.
   */
  public ByteString ascii() {
    return ascii;
  }

  /**
   * The header as text, e.g. {@code <payments/v3:gcm>}: a ciphertext that starts with it has this
   * header, as parsing reads nothing past the first '>'.
   */
  public String text() {
    return text;
  }

  /**
   * The header's ASCII bytes, the first part of an AEAD mode's associated data. The array is
   * shared: callers pass it to the JCE or copy from it, and never change it.
   */
  public byte[] asciiBytes() {
    return aad;
  }

  /** The header's length in bytes, '<' through '>'. */
  public int length() {
    return aad.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EnvelopeHeader h
        && h.version() == version()
        && h.subjectBound == subjectBound
        && h.mode == mode
        && h.keyName().equals(keyName());
  }

  @Override
  public int hashCode() {
    return (keyName().hashCode() * 31 + version()) * 31 + mode.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
