package io.cipherd.server.api;

import io.cipherd.api.v1.CreateImportJobResponse;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportWrappingAlgorithm;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.importjobs.ImportJob;
import io.cipherd.server.importjobs.WrappingAlgorithm;

/** Converts import jobs and their wrapping algorithms between the API and the domain. */
final class ImportJobProtos {
  private ImportJobProtos() {}

  /** The domain algorithm of a CreateImportJob; unspecified means RSA-3072. */
  static WrappingAlgorithm fromProto(ImportWrappingAlgorithm algorithm) {
    return switch (algorithm) {
      case IMPORT_WRAPPING_ALGORITHM_UNSPECIFIED,
          IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072 ->
          WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072;
      case IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096 ->
          WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096;
      case UNRECOGNIZED ->
          throw new InvalidArgumentException(
              "wrapping_algorithm is not one this server knows: "
                  + "IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072 or _4096");
    };
  }

  static ImportWrappingAlgorithm toProto(WrappingAlgorithm algorithm) {
    return switch (algorithm) {
      case RSA_AES_KEY_WRAP_SHA256_3072 ->
          ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072;
      case RSA_AES_KEY_WRAP_SHA256_4096 ->
          ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096;
    };
  }

  /** The response carrying {@code job} as the API shows it: never its private key. */
  static CreateImportJobResponse toProto(ImportJob job) {
    CreateImportJobResponse.Builder response = CreateImportJobResponse.newBuilder();
    response
        .getImportJobBuilder()
        .setImportJobId(job.id())
        .setKeyName(job.keyName())
        .setWrappingAlgorithm(toProto(job.algorithm()))
        .setPublicKeyPem(job.publicKeyPem())
        .setExpireTime(KeyProtos.timestamp(job.expireTime()));
    return response.build();
  }

  /**
   * Whether an ImportKey carries wrapped material: either wrapped field set. Then both must be, and
   * neither key_material nor passphrase may be.
   */
  static boolean isWrapped(ImportKeyRequest request) {
    boolean wrapped = !request.getWrappedKeyMaterial().isEmpty();
    boolean job = !request.getImportJobId().isEmpty();
    if (!wrapped && !job) {
      return false;
    }
    if (!wrapped || !job) {
      throw new InvalidArgumentException(
          "wrapped_key_material and import_job_id go together: wrap the material for a job "
              + "(CreateImportJob) and send both");
    }
    if (!request.getKeyMaterial().isEmpty() || !request.getPassphrase().isEmpty()) {
      throw new InvalidArgumentException(
          "set wrapped_key_material or key_material (or passphrase), not both");
    }
    return true;
  }
}
