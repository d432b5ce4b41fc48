package io.cipherd.server.importjobs;

import io.cipherd.server.errors.InvalidArgumentException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The RSA public key a key backup is wrapped for (BackupKeyRequest.recipient_public_key_pem): a PEM
 * "PUBLIC KEY" of 3072 or 4096 bits, the sizes of {@link WrappingAlgorithm}, whose private key the
 * operator keeps offline. Nothing here is secret.
 */
public final class BackupRecipient {
  /**
   * The longest recipient_public_key_pem read, in characters, checked before anything else: an
   * RSA-4096 key's PEM takes about 800, so this leaves room for any line length or whitespace a
   * tool writes, and keeps what any caller can make the server read small.
   */
  public static final int MAX_PEM_CHARS = 16 * 1024;

  private static final String BEGIN = "-----BEGIN PUBLIC KEY-----";
  private static final String END = "-----END PUBLIC KEY-----";

  private final RSAPublicKey publicKey;
  private final WrappingAlgorithm algorithm;
  private final byte[] sha256;

  private BackupRecipient(RSAPublicKey publicKey, WrappingAlgorithm algorithm, byte[] sha256) {
    this.publicKey = publicKey;
    this.algorithm = algorithm;
    this.sha256 = sha256;
  }

  /**
   * The recipient {@code pem} names; {@link InvalidArgumentException} saying what it got if it is
   * not a PEM RSA public key of 3072 or 4096 bits, or is longer than {@value #MAX_PEM_CHARS}
   * characters. Reading it takes time linear in its length whatever it holds: any caller may send
   * one, before its grant is checked (the audit record reads it too).
   */
  public static BackupRecipient parse(String pem) {
    if (pem.length() > MAX_PEM_CHARS) {
      throw new InvalidArgumentException(
          "recipient_public_key_pem may be at most "
              + MAX_PEM_CHARS
              + " characters (an RSA 3072 or 4096 public key's PEM takes under 1 KiB); got "
              + pem.length());
    }
    String body = armouredBody(pem);
    if (body == null) {
      throw new InvalidArgumentException(
          "recipient_public_key_pem must be a PEM \"PUBLIC KEY\" (X.509 SubjectPublicKeyInfo), e.g."
              + " openssl pkey -pubout; got "
              + (pem.isBlank() ? "nothing" : pem.length() + " characters that are not one"));
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(body);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("recipient_public_key_pem's body is not base64");
    }
    PublicKey key;
    try {
      key = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException | ClassCastException e) {
      throw new InvalidArgumentException(
          "recipient_public_key_pem must be an RSA public key (3072 or 4096 bits); got a key this"
              + " server cannot read as RSA");
    }
    RSAPublicKey rsa = (RSAPublicKey) key;
    int bits = rsa.getModulus().bitLength();
    WrappingAlgorithm algorithm =
        switch (bits) {
          case 3072 -> WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072;
          case 4096 -> WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096;
          default ->
              throw new InvalidArgumentException(
                  "recipient_public_key_pem must be an RSA key of 3072 or 4096 bits; got "
                      + bits
                      + " bits");
        };
    return new BackupRecipient(rsa, algorithm, sha256(rsa.getEncoded()));
  }

  public RSAPublicKey publicKey() {
    return publicKey;
  }

  /** The wrapping algorithm of the recipient key's size. */
  public WrappingAlgorithm algorithm() {
    return algorithm;
  }

  /** SHA-256 of the key's DER SubjectPublicKeyInfo: which private key opens the backup. */
  public byte[] sha256() {
    return sha256.clone();
  }

  /** {@link #sha256} in hex, as the audit record names the recipient. */
  public String fingerprint() {
    return HexFormat.of().formatHex(sha256);
  }

  /**
   * What lies between the armour lines of {@code pem}: its BEGIN line first and END line last, each
   * with only whitespace before or after, and between them at least one character, every one base64
   * or whitespace; null if {@code pem} is not so. One pass over {@code pem}, no backtracking.
   */
  private static String armouredBody(String pem) {
    int start = 0;
    int end = pem.length();
    while (start < end && isPemSpace(pem.charAt(start))) {
      start++;
    }
    while (end > start && isPemSpace(pem.charAt(end - 1))) {
      end--;
    }
    if (end - start <= BEGIN.length() + END.length()
        || !pem.startsWith(BEGIN, start)
        || !pem.startsWith(END, end - END.length())) {
      return null;
    }
    String body = pem.substring(start + BEGIN.length(), end - END.length());
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (!isBase64(c) && !isPemSpace(c)) {
        return null;
      }
    }
    return body;
  }

  /** Whitespace as PEM armour allows it around and inside the body: regex {@code \s}'s set. */
  private static boolean isPemSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }

  private static boolean isBase64(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '+'
        || c == '/'
        || c == '=';
  }

  private static byte[] sha256(byte[] der) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(der);
    } catch (NoSuchAlgorithmException missing) {
      throw new IllegalStateException("every JDK has SHA-256", missing);
    }
  }

  @Override
  public String toString() {
    return "BackupRecipient[" + algorithm + ", sha256 " + fingerprint() + "]";
  }
}
