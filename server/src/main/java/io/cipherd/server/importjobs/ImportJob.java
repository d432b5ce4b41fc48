package io.cipherd.server.importjobs;

import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import javax.security.auth.DestroyFailedException;

/**
 * One import job: the key it imports into, its wrapping algorithm, its expiry and its RSA key pair.
 * The private key never leaves this class but to unwrap the job's one import, and is dropped when
 * the job ends; {@link #toString} shows neither key.
 */
public final class ImportJob {
  private final String id;
  private final String keyName;
  private final WrappingAlgorithm algorithm;
  private final String caller;
  private final Instant expireTime;
  private final RSAPublicKey publicKey;
  // Guarded by the ImportJobs holding the job; null once the job has ended.
  private RSAPrivateKey privateKey;

  ImportJob(
      String id,
      String keyName,
      WrappingAlgorithm algorithm,
      String caller,
      Instant expireTime,
      RSAPublicKey publicKey,
      RSAPrivateKey privateKey) {
    this.id = id;
    this.keyName = keyName;
    this.algorithm = algorithm;
    this.caller = caller;
    this.expireTime = expireTime;
    this.publicKey = publicKey;
    this.privateKey = privateKey;
  }

  /** The job's name in ImportKeyRequest.import_job_id: 128 random bits, hex. */
  public String id() {
    return id;
  }

  /** The only key the job imports into. */
  public String keyName() {
    return keyName;
  }

  public WrappingAlgorithm algorithm() {
    return algorithm;
  }

  /** When the job stops accepting its import. */
  public Instant expireTime() {
    return expireTime;
  }

  /** The wrapping public key as PEM "PUBLIC KEY" (X.509 SubjectPublicKeyInfo). */
  public String publicKeyPem() {
    String body =
        Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(publicKey.getEncoded());
    return "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n";
  }

  String caller() {
    return caller;
  }

  boolean expiredAt(Instant now) {
    return !now.isBefore(expireTime);
  }

  /** The private key, once: the job ends with this call. */
  RSAPrivateKey takePrivateKey() {
    RSAPrivateKey key = privateKey;
    privateKey = null;
    return key;
  }

  /**
   * Ends the job without an import. The JDK's RSA private keys keep their numbers in immutable
   * BigIntegers and most do not implement {@code destroy()}: the key is destroyed where the
   * provider can, and otherwise only unreferenced, to be collected.
   */
  void end() {
    destroy(takePrivateKey());
  }

  static void destroy(RSAPrivateKey key) {
    if (key == null || key.isDestroyed()) {
      return;
    }
    try {
      key.destroy();
    } catch (DestroyFailedException notSupported) {
      // The provider keeps no destroyable copy: dropping the reference is all there is.
    }
  }

  @Override
  public String toString() {
    return "ImportJob["
        + id
        + ", key="
        + keyName
        + ", "
        + algorithm
        + ", until "
        + expireTime
        + "]";
  }
}
