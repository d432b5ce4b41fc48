package io.cipherd.server.subjectkeys;

import com.google.crypto.tink.subtle.Hkdf;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.subjects.SubjectHash;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Names subjects as the subject store knows them: HMAC-SHA-256 of the subject id's UTF-8 bytes
 * under {@code K_subject = HKDF-SHA-256(ikm = the key store's audit key material, info = "cipherd
 * subject hash v1")}. Every replica of a key store derives the same key, and the store alone cannot
 * be tested against guessed ids. It is not the audit key's hash (which receipts and audit records
 * carry): a hash read in the trail does not find a row, nor the reverse, without the key store.
 */
public final class SubjectHasher {
  /** The longest subject id, in UTF-8 bytes. */
  public static final int MAX_SUBJECT_BYTES = 256;

  private static final String INFO = "cipherd subject hash v1";
  private static final String HMAC = "HmacSHA256";

  private final SecretKeySpec key;
  private final ThreadLocal<Mac> macs;

  /** Derives the subject key from {@code auditKeyMaterial} (not kept; the caller wipes it). */
  public SubjectHasher(byte[] auditKeyMaterial) {
    byte[] derived;
    try {
      derived =
          Hkdf.computeHkdf(
              "HMACSHA256",
              auditKeyMaterial,
              /* salt= */ new byte[0],
              INFO.getBytes(StandardCharsets.US_ASCII),
              32);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HKDF-SHA-256 is unavailable", e);
    }
    this.key = new SecretKeySpec(derived, HMAC);
    Arrays.fill(derived, (byte) 0);
    this.macs = ThreadLocal.withInitial(this::newMac);
  }

  /**
   * The store's name for {@code subject}; throws {@link InvalidArgumentException} unless it is 1 to
   * {@value #MAX_SUBJECT_BYTES} bytes of UTF-8 (the message says which, never the id).
   */
  public SubjectHash hash(String field, String subject) {
    return hash(utf8(field, subject));
  }

  /** The store's name for a subject id already checked and encoded by {@link #utf8}. */
  public SubjectHash hash(byte[] utf8Subject) {
    return SubjectHash.of(macs.get().doFinal(utf8Subject));
  }

  /** The subject id's UTF-8 bytes, checked as {@link #hash} says. */
  public static byte[] utf8(String field, String subject) {
    if (subject.isEmpty()) {
      throw new InvalidArgumentException(field + " is empty");
    }
    if (subject.length() > MAX_SUBJECT_BYTES) {
      throw new InvalidArgumentException(
          field + " must be at most " + MAX_SUBJECT_BYTES + " bytes of UTF-8");
    }
    if (!hasSurrogates(subject)) {
      // Every such string encodes: no encoder to make, no error to catch.
      byte[] bytes = subject.getBytes(StandardCharsets.UTF_8);
      if (bytes.length > MAX_SUBJECT_BYTES) {
        throw new InvalidArgumentException(
            field + " must be at most " + MAX_SUBJECT_BYTES + " bytes of UTF-8");
      }
      return bytes;
    }
    try {
      ByteBuffer encoded =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(subject));
      if (encoded.remaining() > MAX_SUBJECT_BYTES) {
        throw new InvalidArgumentException(
            field + " must be at most " + MAX_SUBJECT_BYTES + " bytes of UTF-8");
      }
      byte[] bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new InvalidArgumentException(field + " is not valid UTF-8");
    }
  }

  private static boolean hasSurrogates(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable in this JDK", e);
    }
  }

  @Override
  public String toString() {
    return "SubjectHasher[hidden]";
  }
}
