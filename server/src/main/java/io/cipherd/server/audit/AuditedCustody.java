package io.cipherd.server.audit;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.BackupKeyResponse;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateImportJobResponse;
import io.cipherd.api.v1.ImportJob;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportKeyResponse;
import io.cipherd.api.v1.ImportWrappingAlgorithm;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyBackupFile;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.RestoreKeyResponse;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.importjobs.BackupRecipient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a key custody call (CreateImportJob, ImportKey, BackupKey, RestoreKey) did, for its record,
 * so an investigator can say which import job, which recipient and which versions: what the request
 * asked (the job it named, the wrapping algorithm, the recipient it wrapped for), and, once the
 * call answered, what the answer says was done (the job made and its expiry, the versions whose
 * material came in or went out). Never key material, a wrapped blob or a public key itself: a
 * refused or failed call keeps only what it asked, each part bounded.
 *
 * @param importJobId the job the request named or the call made; {@value #INVALID_JOB} for a named
 *     id that is not one (ids are {@value #JOB_ID_HEX} hex digits); null for none
 * @param wrappingAlgorithm the wrapping algorithm of the job, or of the backup's recipient key, as
 *     the server names it ({@code RSA_AES_KEY_WRAP_SHA256_3072}); null for none
 * @param importJobExpireTime when the job made stops accepting its import; null but for a
 *     CreateImportJob that answered
 * @param recipient {@code sha256:<hex>} of the backup recipient's DER SubjectPublicKeyInfo, as the
 *     backup file's {@code recipient_key_sha256}; null when the request named none this server
 *     reads
 * @param versions the version numbers whose key material the call wrote (ImportKey, RestoreKey) or
 *     wrapped into the backup (BackupKey), the first {@value #MAX_VERSIONS}
 * @param versionsFolded how many such versions past those
 */
record AuditedCustody(
    String importJobId,
    String wrappingAlgorithm,
    Instant importJobExpireTime,
    String recipient,
    List<Integer> versions,
    long versionsFolded) {
  static final int MAX_VERSIONS = 64;
  static final int JOB_ID_HEX = 32;
  static final String INVALID_JOB = "<invalid>";
  private static final String SHA256 = "sha256:";

  /** No custody: the record of any other call. */
  static final AuditedCustody NONE = new AuditedCustody(null, null, null, null, List.of(), 0);

  private static final Pattern JOB_ID = Pattern.compile("[0-9a-f]{" + JOB_ID_HEX + "}");
  private static final String ALGORITHM_PREFIX = "IMPORT_WRAPPING_ALGORITHM_";

  AuditedCustody {
    versions = List.copyOf(versions);
  }

  boolean isEmpty() {
    return importJobId == null
        && wrappingAlgorithm == null
        && importJobExpireTime == null
        && recipient == null
        && versions.isEmpty()
        && versionsFolded == 0;
  }

  /** Whether {@code request} is a custody call's, whose answer {@link #answered} reads. */
  static boolean isCustody(Object request) {
    return request instanceof CreateImportJobRequest
        || request instanceof ImportKeyRequest
        || request instanceof BackupKeyRequest
        || request instanceof RestoreKeyRequest;
  }

  /** What {@code request} asked; {@link #NONE} for any but a custody call's. */
  static AuditedCustody asked(Object request) {
    return switch (request) {
      case CreateImportJobRequest r ->
          new AuditedCustody(null, algorithm(r.getWrappingAlgorithm()), null, null, List.of(), 0);
      case ImportKeyRequest r ->
          new AuditedCustody(job(r.getImportJobId()), null, null, null, List.of(), 0);
      case BackupKeyRequest r -> backup(r.getRecipientPublicKeyPem());
      case RestoreKeyRequest r ->
          new AuditedCustody(job(r.getImportJobId()), null, null, null, List.of(), 0);
      default -> NONE;
    };
  }

  /** This, with what {@code response} says the call did; unchanged for any other message. */
  AuditedCustody answered(Object response) {
    return switch (response) {
      case CreateImportJobResponse r -> made(r.getImportJob());
      case ImportKeyResponse r ->
          r.getKey().getCurrentVersion() > 0
              ? withVersions(List.of(r.getKey().getCurrentVersion()), 0)
              : this;
      case BackupKeyResponse r -> wrappedFor(r.getBackupFile()).withMaterialOf(r.getKey());
      case RestoreKeyResponse r -> withMaterialOf(r.getKey());
      default -> this;
    };
  }

  private AuditedCustody made(ImportJob job) {
    String algorithm = algorithm(job.getWrappingAlgorithm());
    return new AuditedCustody(
        job(job.getImportJobId()),
        algorithm != null ? algorithm : wrappingAlgorithm,
        job.hasExpireTime()
            ? Instant.ofEpochSecond(
                job.getExpireTime().getSeconds(), job.getExpireTime().getNanos())
            : null,
        recipient,
        versions,
        versionsFolded);
  }

  /**
   * This, with the recipient and algorithm the backup file's clear header names: what the server
   * wrapped for, whatever the request's PEM looked like. Unchanged if the file does not parse.
   */
  private AuditedCustody wrappedFor(ByteString file) {
    KeyBackupFile header;
    try {
      header = KeyBackupFile.parseFrom(file);
    } catch (InvalidProtocolBufferException notAFile) {
      return this;
    }
    String algorithm = algorithm(header.getWrappingAlgorithm());
    return new AuditedCustody(
        importJobId,
        algorithm != null ? algorithm : wrappingAlgorithm,
        importJobExpireTime,
        header.getRecipientKeySha256().isEmpty()
            ? recipient
            : SHA256 + HexFormat.of().formatHex(header.getRecipientKeySha256().toByteArray()),
        versions,
        versionsFolded);
  }

  /** The versions of {@code key} that carry material: every one not destroyed. */
  private AuditedCustody withMaterialOf(Key key) {
    List<Integer> kept = new ArrayList<>();
    long folded = 0;
    for (KeyVersion version : key.getVersionsList()) {
      if (version.getState() == KeyVersionState.KEY_VERSION_STATE_DESTROYED) {
        continue;
      }
      if (kept.size() < MAX_VERSIONS) {
        kept.add(version.getVersion());
      } else {
        folded++;
      }
    }
    return withVersions(kept, folded);
  }

  private AuditedCustody withVersions(List<Integer> written, long folded) {
    return new AuditedCustody(
        importJobId, wrappingAlgorithm, importJobExpireTime, recipient, written, folded);
  }

  /**
   * The recipient {@code pem} names and its key size's wrapping algorithm, read by BackupKey's own
   * {@link BackupRecipient#parse}: nothing for a PEM the call refuses, whether not an RSA key it
   * would take or longer than {@value BackupRecipient#MAX_PEM_CHARS} characters. Any caller may
   * send one, refused or not, and that parse checks the length first and reads the rest in one
   * pass.
   */
  private static AuditedCustody backup(String pem) {
    try {
      BackupRecipient recipient = BackupRecipient.parse(pem);
      return new AuditedCustody(
          null, recipient.algorithm().name(), null, SHA256 + recipient.fingerprint(), List.of(), 0);
    } catch (InvalidArgumentException notAKey) {
      return NONE;
    }
  }

  private static String job(String id) {
    if (id.isEmpty()) {
      return null;
    }
    return JOB_ID.matcher(id).matches() ? id : INVALID_JOB;
  }

  /** The API's algorithm as the server names it; unspecified means 3072, as the API says. */
  private static String algorithm(ImportWrappingAlgorithm algorithm) {
    return switch (algorithm) {
      case IMPORT_WRAPPING_ALGORITHM_UNSPECIFIED ->
          ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072
              .name()
              .substring(ALGORITHM_PREFIX.length());
      case UNRECOGNIZED -> null;
      default -> algorithm.name().substring(ALGORITHM_PREFIX.length());
    };
  }
}
