package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.BackupKeyResponse;
import io.cipherd.api.v1.CancelKeyDeletionRequest;
import io.cipherd.api.v1.CancelKeyDeletionResponse;
import io.cipherd.api.v1.CancelKeyVersionDestructionRequest;
import io.cipherd.api.v1.CancelKeyVersionDestructionResponse;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateImportJobResponse;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CreateKeyResponse;
import io.cipherd.api.v1.DisableKeyRequest;
import io.cipherd.api.v1.DisableKeyResponse;
import io.cipherd.api.v1.EnableKeyRequest;
import io.cipherd.api.v1.EnableKeyResponse;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.GetKeyCensusResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.GetKeyResponse;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportKeyResponse;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.ListKeysRequest;
import io.cipherd.api.v1.ListKeysResponse;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.RestoreKeyResponse;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RetireKeyVersionsResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.RotateKeyResponse;
import io.cipherd.api.v1.ScheduleKeyDeletionRequest;
import io.cipherd.api.v1.ScheduleKeyDeletionResponse;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse;
import io.cipherd.api.v1.SetKeyExportableRequest;
import io.cipherd.api.v1.SetKeyExportableResponse;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.api.v1.UpdateKeyPolicyResponse;
import io.cipherd.api.v1.VersionCensus;
import io.cipherd.server.engine.AuthorizedKeyAdmin;
import io.cipherd.server.engine.BackupSource;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.lifecycle.KeyCensus;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The gRPC face of {@link AuthorizedKeyAdmin}. Every call may touch the key store, so all run on
 * the blocking pool.
 */
public final class KeyAdminServiceImpl extends KeyAdminServiceGrpc.KeyAdminServiceImplBase {
  private final AuthorizedKeyAdmin keys;
  private final KeyLifecycleCalls lifecycle;
  private final CallDispatcher dispatcher;

  KeyAdminServiceImpl(AuthorizedKeyAdmin keys, CallDispatcher dispatcher) {
    this.keys = keys;
    this.lifecycle = new KeyLifecycleCalls(keys);
    this.dispatcher = dispatcher;
  }

  @Override
  public void createKey(CreateKeyRequest request, StreamObserver<CreateKeyResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () ->
            CreateKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.create(
                            request.getKeyName(),
                            ModeProtos.template(
                                request.getMode(),
                                request.getKeySizeBits(),
                                request.getAllowUnauthenticated(),
                                request.hasFpeFormat(),
                                request.getFpeFormat()),
                            KeyProtos.fromProto(request.hasPolicy(), request.getPolicy()),
                            request.getExportable())))
                .build());
  }

  @Override
  public void setKeyExportable(
      SetKeyExportableRequest request, StreamObserver<SetKeyExportableResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () ->
            SetKeyExportableResponse.newBuilder()
                .setKey(KeyProtos.toProto(keys.setExportable(request.getKeyName())))
                .build());
  }

  @Override
  public void backupKey(BackupKeyRequest request, StreamObserver<BackupKeyResponse> observer) {
    // RSA-OAEP and the key wrap of every version: never on the transport's threads.
    dispatcher.unaryOnBlockingPool(
        observer,
        () -> {
          BackupSource source =
              keys.backup(request.getKeyName(), request.getRecipientPublicKeyPem());
          try {
            return BackupKeyResponse.newBuilder()
                .setBackupFile(
                    ByteString.copyFrom(
                        KeyBackupProtos.backupFile(
                            source.exported(), source.recipient(), Instant.now())))
                .setKey(KeyProtos.toProto(source.exported().key()))
                .build();
          } finally {
            source.exported().wipe();
          }
        });
  }

  @Override
  public void restoreKey(RestoreKeyRequest request, StreamObserver<RestoreKeyResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () ->
            RestoreKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.restore(
                            request.getKeyName(),
                            request.getImportJobId(),
                            request.getWrappedKeyBackup().toByteArray(),
                            KeyBackupProtos::parse)))
                .build());
  }

  @Override
  public void getKey(GetKeyRequest request, StreamObserver<GetKeyResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () ->
            GetKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.describe(request.getKeyName()), keys.usage(request.getKeyName())))
                .build());
  }

  @Override
  public void listKeys(ListKeysRequest request, StreamObserver<ListKeysResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () -> {
          AuthorizedKeyAdmin.KeyPage page =
              keys.list(request.getPageToken(), request.getPageSize());
          ListKeysResponse.Builder response =
              ListKeysResponse.newBuilder().setNextPageToken(page.nextPageToken());
          page.keys().forEach(key -> response.addKeys(KeyProtos.toProto(key)));
          return response.build();
        });
  }

  @Override
  public void rotateKey(RotateKeyRequest request, StreamObserver<RotateKeyResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () ->
            RotateKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.rotate(
                            request.getKeyName(),
                            ModeProtos.template(
                                request.getMode(),
                                request.getKeySizeBits(),
                                request.getAllowUnauthenticated())),
                        keys.usage(request.getKeyName())))
                .build());
  }

  @Override
  public void updateKeyPolicy(
      UpdateKeyPolicyRequest request, StreamObserver<UpdateKeyPolicyResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () ->
            UpdateKeyPolicyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.updatePolicy(
                            request.getKeyName(),
                            KeyProtos.fromProto(request.hasPolicy(), request.getPolicy())),
                        keys.usage(request.getKeyName())))
                .build());
  }

  @Override
  public void createImportJob(
      CreateImportJobRequest request, StreamObserver<CreateImportJobResponse> observer) {
    // RSA key generation takes a core for up to a second: never on the transport's threads.
    dispatcher.unaryOnBlockingPool(
        observer,
        () ->
            ImportJobProtos.toProto(
                keys.createImportJob(
                    request.getKeyName(),
                    ImportJobProtos.fromProto(request.getWrappingAlgorithm()))));
  }

  @Override
  public void importKey(ImportKeyRequest request, StreamObserver<ImportKeyResponse> observer) {
    if (request.getLegacyCipher() != LegacyCipher.LEGACY_CIPHER_UNSPECIFIED) {
      importLegacyKey(request, observer);
      return;
    }
    dispatcher.unaryOnBlockingPool(
        observer,
        () -> {
          LegacyProtos.checkNoLegacyFields(request);
          if (ImportJobProtos.isWrapped(request)) {
            return ImportKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.importWrappedVersion(
                            request.getKeyName(),
                            ModeProtos.importTemplate(
                                request.getMode(),
                                request.getAllowUnauthenticated(),
                                request.hasFpeFormat(),
                                request.getFpeFormat()),
                            request.getImportJobId(),
                            request.getWrappedKeyMaterial().toByteArray(),
                            TransitKdfProtos.fromProto(request))))
                .build();
          }
          byte[] material = request.getKeyMaterial().toByteArray();
          try {
            return ImportKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.importVersion(
                            request.getKeyName(),
                            ModeProtos.importTemplate(
                                request.getMode(),
                                request.getAllowUnauthenticated(),
                                request.hasFpeFormat(),
                                request.getFpeFormat()),
                            material,
                            TransitKdfProtos.fromProto(request))))
                .build();
          } finally {
            Arrays.fill(material, (byte) 0);
          }
        });
  }

  /**
   * ImportKey with legacy_cipher: a decrypt-only version whose key is key_material or a MySQL
   * passphrase, or wrapped_key_material.
   */
  private void importLegacyKey(
      ImportKeyRequest request, StreamObserver<ImportKeyResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () -> {
          if (TransitKdfProtos.fromProto(request) != null) {
            throw new InvalidArgumentException(
                "transit_kdf is for versions of a derived Vault Transit key (mode MODE_GCM or"
                    + " MODE_CHACHA), not for legacy keys");
          }
          if (ImportJobProtos.isWrapped(request)) {
            return ImportKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.importWrappedLegacyVersion(
                            request.getKeyName(),
                            LegacyProtos.format(request),
                            request.getImportJobId(),
                            request.getWrappedKeyMaterial().toByteArray())))
                .build();
          }
          byte[] material = request.getKeyMaterial().toByteArray();
          byte[] passphrase = request.getPassphrase().toByteArray();
          try {
            return ImportKeyResponse.newBuilder()
                .setKey(
                    KeyProtos.toProto(
                        keys.importLegacyVersion(
                            request.getKeyName(),
                            LegacyProtos.format(request),
                            material,
                            passphrase)))
                .build();
          } finally {
            Arrays.fill(material, (byte) 0);
            Arrays.fill(passphrase, (byte) 0);
          }
        });
  }

  @Override
  public void getKeyCensus(
      GetKeyCensusRequest request, StreamObserver<GetKeyCensusResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () -> {
          KeyCensus census =
              keys.census(
                  request.getKeyName(),
                  DurationProtos.fromProto(
                      "quiet_period", request.hasQuietPeriod(), request.getQuietPeriod()));
          Map<Integer, VersionUsage> usage = new HashMap<>();
          GetKeyCensusResponse.Builder response =
              GetKeyCensusResponse.newBuilder()
                  .setSafeMinDecryptionVersion(census.safeMinDecryptionVersion());
          for (KeyCensus.Entry entry : census.versions()) {
            usage.put(entry.version(), entry.usage());
            response.addVersions(
                VersionCensus.newBuilder()
                    .setVersion(entry.version())
                    .setUsage(KeyProtos.toProto(entry.usage()))
                    .setInUse(entry.inUse())
                    .setSubjectKeys(entry.subjectKeys()));
          }
          return response.setKey(KeyProtos.toProto(census.key(), usage)).build();
        });
  }

  @Override
  public void disableKey(DisableKeyRequest request, StreamObserver<DisableKeyResponse> observer) {
    dispatcher.unaryOnBlockingPool(observer, () -> lifecycle.disable(request));
  }

  @Override
  public void enableKey(EnableKeyRequest request, StreamObserver<EnableKeyResponse> observer) {
    dispatcher.unaryOnBlockingPool(observer, () -> lifecycle.enable(request));
  }

  @Override
  public void scheduleKeyVersionDestruction(
      ScheduleKeyVersionDestructionRequest request,
      StreamObserver<ScheduleKeyVersionDestructionResponse> observer) {
    dispatcher.unaryOnBlockingPool(observer, () -> lifecycle.scheduleDestruction(request));
  }

  @Override
  public void cancelKeyVersionDestruction(
      CancelKeyVersionDestructionRequest request,
      StreamObserver<CancelKeyVersionDestructionResponse> observer) {
    dispatcher.unaryOnBlockingPool(observer, () -> lifecycle.cancelDestruction(request));
  }

  @Override
  public void scheduleKeyDeletion(
      ScheduleKeyDeletionRequest request, StreamObserver<ScheduleKeyDeletionResponse> observer) {
    dispatcher.unaryOnBlockingPool(observer, () -> lifecycle.scheduleDeletion(request));
  }

  @Override
  public void cancelKeyDeletion(
      CancelKeyDeletionRequest request, StreamObserver<CancelKeyDeletionResponse> observer) {
    dispatcher.unaryOnBlockingPool(observer, () -> lifecycle.cancelDeletion(request));
  }

  @Override
  public void retireKeyVersions(
      RetireKeyVersionsRequest request, StreamObserver<RetireKeyVersionsResponse> observer) {
    dispatcher.unaryOnBlockingPool(observer, () -> lifecycle.retire(request));
  }
}
