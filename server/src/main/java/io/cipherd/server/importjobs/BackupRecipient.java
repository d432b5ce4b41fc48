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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RSA public key a key backup is wrapped for (BackupKeyRequest.recipient_public_key_pem): a PEM
 * "PUBLIC KEY" of 3072 or 4096 bits, the sizes of {@link WrappingAlgorithm}, whose private key the
 * operator keeps offline. Nothing here is secret.
 */
public final class BackupRecipient {
  private static final Pattern PEM =
      Pattern.compile(
          "\\A\\s*-----BEGIN PUBLIC KEY-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END PUBLIC KEY-----\\s*\\z");

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
   * not a PEM RSA public key of 3072 or 4096 bits.
   */
  public static BackupRecipient parse(String pem) {
    Matcher matcher = PEM.matcher(pem);
    if (!matcher.matches()) {
      throw new InvalidArgumentException(
          "recipient_public_key_pem must be a PEM \"PUBLIC KEY\" (X.509 SubjectPublicKeyInfo), e.g."
              + " openssl pkey -pubout; got "
              + (pem.isBlank() ? "nothing" : pem.length() + " characters that are not one"));
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(matcher.group(1));
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
