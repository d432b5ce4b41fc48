package io.cipherd.client;

import com.google.protobuf.InvalidProtocolBufferException;
import io.cipherd.api.v1.KeyBackup;
import io.cipherd.api.v1.KeyBackupFile;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

/**
 * A key backup file opened with its recipient's private key, as {@link KeyAdmin#restoreBackup} does
 * before it wraps the backup again for an import job: {@link #key} is the key it holds (versions
 * and states, no material). It holds the serialized KeyBackup until {@link #close}, which zeroes it
 * (the protobuf copies made while checking the header are immutable and left to the garbage
 * collector).
 */
public final class OpenedKeyBackup implements AutoCloseable {
  private final Key key;
  private final byte[] keyBackup;

  private OpenedKeyBackup(Key key, byte[] keyBackup) {
    this.key = key;
    this.keyBackup = keyBackup;
  }

  public Key key() {
    return key;
  }

  /** The serialized KeyBackup, secret: not a copy, zeroed by {@link #close}. */
  byte[] keyBackup() {
    return keyBackup;
  }

  /** Zeroes the serialized KeyBackup. */
  @Override
  public void close() {
    Arrays.fill(keyBackup, (byte) 0);
  }

  /**
   * Opens a backup file with {@code identityPem}, the recipient's RSA private key (a PEM "PRIVATE
   * KEY", PKCS#8, as openssl genpkey writes it). Refuses, with {@link
   * KeyBackupUnopenableException}, a file made for another public key, one that does not unwrap
   * (tampered with), and one whose clear header does not match the KeyBackup inside it.
   */
  public static OpenedKeyBackup open(byte[] file, String identityPem) {
    RSAPrivateCrtKey privateKey = privateKey(identityPem);
    KeyBackupFile header;
    try {
      header = KeyBackupFile.parseFrom(file);
    } catch (InvalidProtocolBufferException e) {
      throw new KeyBackupUnopenableException("not a key backup file of format 1");
    }
    if (header.getFormat() != 1) {
      throw new KeyBackupUnopenableException("not a key backup file of format 1");
    }
    byte[] recipient = recipientSha256(privateKey);
    byte[] named = header.getRecipientKeySha256().toByteArray();
    if (!MessageDigest.isEqual(named, recipient)) {
      HexFormat hex = HexFormat.of();
      throw new KeyBackupUnopenableException(
          "the backup of key '"
              + header.getKeyName()
              + "' was made for another recipient key (SHA-256 "
              + hex.formatHex(named)
              + ", this key's is "
              + hex.formatHex(recipient)
              + ")");
    }
    byte[] inner = unwrap(privateKey, header.getWrappedKeyBackup().toByteArray(), header);
    KeyBackup backup;
    try {
      backup = KeyBackup.parseFrom(inner);
    } catch (InvalidProtocolBufferException e) {
      Arrays.fill(inner, (byte) 0);
      throw new KeyBackupUnopenableException(
          "the backup of key '" + header.getKeyName() + "' unwraps to no KeyBackup");
    }
    if (!backup.getKey().getKeyName().equals(header.getKeyName())
        || !backup.getRecipientKeySha256().equals(header.getRecipientKeySha256())
        || !backup.getBackupTime().equals(header.getBackupTime())) {
      Arrays.fill(inner, (byte) 0);
      throw new KeyBackupUnopenableException(
          "the backup file's header (key '"
              + header.getKeyName()
              + "') does not match the backup inside it");
    }
    return new OpenedKeyBackup(KeyConversion.key(backup.getKey()), inner);
  }

  private static byte[] unwrap(RSAPrivateCrtKey privateKey, byte[] wrapped, KeyBackupFile header) {
    int size = (privateKey.getModulus().bitLength() + 7) / 8;
    byte[] ephemeral = null;
    try {
      if (wrapped.length <= size) {
        throw new GeneralSecurityException("shorter than the RSA block");
      }
      Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
      rsa.init(
          Cipher.DECRYPT_MODE,
          privateKey,
          new OAEPParameterSpec(
              "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT));
      ephemeral = rsa.doFinal(wrapped, 0, size);
      Cipher kwp = Cipher.getInstance("AES/KWP/NoPadding");
      kwp.init(Cipher.DECRYPT_MODE, new SecretKeySpec(ephemeral, "AES"));
      return kwp.doFinal(wrapped, size, wrapped.length - size);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new KeyBackupUnopenableException(
          "the backup of key '"
              + header.getKeyName()
              + "' does not unwrap: it was tampered with or made for another recipient");
    } finally {
      if (ephemeral != null) {
        Arrays.fill(ephemeral, (byte) 0);
      }
    }
  }

  /** The SHA-256 of the public key's DER SubjectPublicKeyInfo, as the file's header names it. */
  private static byte[] recipientSha256(RSAPrivateCrtKey privateKey) {
    try {
      var publicKey =
          KeyFactory.getInstance("RSA")
              .generatePublic(
                  new RSAPublicKeySpec(privateKey.getModulus(), privateKey.getPublicExponent()));
      return MessageDigest.getInstance("SHA-256").digest(publicKey.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no RSA or SHA-256", e);
    }
  }

  private static RSAPrivateCrtKey privateKey(String pem) {
    if (!pem.contains("-----BEGIN PRIVATE KEY-----")) {
      throw new IllegalArgumentException(
          "the identity is not a PEM PRIVATE KEY (PKCS#8, as openssl genpkey writes it)");
    }
    String body =
        pem.replace("-----BEGIN PRIVATE KEY-----", "")
            .replace("-----END PRIVATE KEY-----", "")
            .replaceAll("\\s", "");
    byte[] der = Base64.getDecoder().decode(body);
    try {
      if (KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der))
          instanceof RSAPrivateCrtKey key) {
        return key;
      }
      throw new IllegalArgumentException("the identity is not an RSA private key with its CRT");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("the identity is not an RSA private key", e);
    } finally {
      Arrays.fill(der, (byte) 0);
    }
  }
}
