package io.cipherd.server.crypto.keywrap;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

/**
 * The client's half of CKM_RSA_AES_KEY_WRAP with the JDK, for tests: what a caller does with an
 * import job's public key before ImportKey, and what a backup's recipient does with its private key
 * to open the backup.
 */
public final class JdkKeyWrap {
  private JdkKeyWrap() {}

  /** The RSA public key of a PEM "PUBLIC KEY". */
  public static RSAPublicKey publicKey(String pem) throws GeneralSecurityException {
    String body =
        pem.replace("-----BEGIN PUBLIC KEY-----", "")
            .replace("-----END PUBLIC KEY-----", "")
            .replaceAll("\\s", "");
    return (RSAPublicKey)
        KeyFactory.getInstance("RSA")
            .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
  }

  /** {@code material} wrapped for {@code publicKey} under a fresh AES-256 key. */
  public static byte[] wrap(RSAPublicKey publicKey, byte[] material)
      throws GeneralSecurityException {
    byte[] ephemeral = new byte[32];
    new SecureRandom().nextBytes(ephemeral);
    return wrap(publicKey, ephemeral, material);
  }

  /** {@code material} wrapped for {@code publicKey} under the AES key {@code ephemeral}. */
  public static byte[] wrap(RSAPublicKey publicKey, byte[] ephemeral, byte[] material)
      throws GeneralSecurityException {
    Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
    rsa.init(
        Cipher.ENCRYPT_MODE,
        publicKey,
        new OAEPParameterSpec(
            "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT));
    byte[] head = rsa.doFinal(ephemeral);
    Cipher kwp = Cipher.getInstance("AES/KWP/NoPadding");
    kwp.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(ephemeral, "AES"));
    byte[] tail = kwp.doFinal(material);
    byte[] blob = new byte[head.length + tail.length];
    System.arraycopy(head, 0, blob, 0, head.length);
    System.arraycopy(tail, 0, blob, head.length, tail.length);
    return blob;
  }

  /** What {@link #wrap} wrapped for the public half of {@code privateKey}. */
  public static byte[] unwrap(RSAPrivateKey privateKey, byte[] blob)
      throws GeneralSecurityException {
    int modulusBytes = (privateKey.getModulus().bitLength() + 7) / 8;
    Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
    rsa.init(
        Cipher.DECRYPT_MODE,
        privateKey,
        new OAEPParameterSpec(
            "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT));
    byte[] aes = rsa.doFinal(Arrays.copyOf(blob, modulusBytes));
    Cipher kwp = Cipher.getInstance("AES/KWP/NoPadding");
    kwp.init(Cipher.DECRYPT_MODE, new SecretKeySpec(aes, "AES"));
    return kwp.doFinal(Arrays.copyOfRange(blob, modulusBytes, blob.length));
  }
}
