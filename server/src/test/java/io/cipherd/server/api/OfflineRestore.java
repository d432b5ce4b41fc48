package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.ImportJob;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyBackupFile;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.RestoreKeyResponse;
import io.cipherd.server.crypto.keywrap.JdkKeyWrap;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.util.Base64;

/**
 * The backup recipient's half of a backup and restore, with the JDK's own ciphers, for tests: what
 * cipherctl keys restore does offline with the recipient's private key (open the KeyBackupFile)
 * before it wraps the KeyBackup again for an import job of the target server.
 */
final class OfflineRestore {
  final KeyPair recipient;

  private OfflineRestore(KeyPair recipient) {
    this.recipient = recipient;
  }

  /** A recipient with a fresh RSA key of {@code bits} bits. */
  static OfflineRestore withNewKey(int bits) throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(bits);
    return new OfflineRestore(generator.generateKeyPair());
  }

  /** The recipient's public key as PEM "PUBLIC KEY". */
  String publicKeyPem() {
    return "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'})
            .encodeToString(recipient.getPublic().getEncoded())
        + "\n-----END PUBLIC KEY-----\n";
  }

  /** BackupKey of {@code key} for this recipient, on {@code source}. */
  KeyBackupFile backup(KeyAdminServiceGrpc.KeyAdminServiceBlockingStub source, String key)
      throws Exception {
    return KeyBackupFile.parseFrom(
        source
            .backupKey(
                BackupKeyRequest.newBuilder()
                    .setKeyName(key)
                    .setRecipientPublicKeyPem(publicKeyPem())
                    .build())
            .getBackupFile());
  }

  /** The serialized KeyBackup {@code file} holds, opened with the recipient's private key. */
  byte[] open(KeyBackupFile file) throws GeneralSecurityException {
    return JdkKeyWrap.unwrap(
        (RSAPrivateKey) recipient.getPrivate(), file.getWrappedKeyBackup().toByteArray());
  }

  /** Restores {@code file} into {@code target}: a job for its key, the backup wrapped for it. */
  RestoreKeyResponse restore(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub target, KeyBackupFile file) throws Exception {
    return restore(target, file.getKeyName(), open(file));
  }

  /**
   * Restores the serialized {@code keyBackup} into {@code target} as key {@code jobKey}, with a job
   * for that key.
   */
  static RestoreKeyResponse restore(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub target, String jobKey, byte[] keyBackup)
      throws Exception {
    return restore(target, jobKey, jobKey, keyBackup);
  }

  /**
   * Restores the serialized {@code keyBackup} into {@code target} as key {@code keyName}, with a
   * job for {@code jobKey}.
   */
  static RestoreKeyResponse restore(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub target,
      String keyName,
      String jobKey,
      byte[] keyBackup)
      throws Exception {
    ImportJob job =
        target
            .createImportJob(CreateImportJobRequest.newBuilder().setKeyName(jobKey).build())
            .getImportJob();
    return target.restoreKey(
        RestoreKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setImportJobId(job.getImportJobId())
            .setWrappedKeyBackup(
                ByteString.copyFrom(
                    JdkKeyWrap.wrap(JdkKeyWrap.publicKey(job.getPublicKeyPem()), keyBackup)))
            .build());
  }
}
