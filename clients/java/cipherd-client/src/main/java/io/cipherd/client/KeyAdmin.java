package io.cipherd.client;

import static io.cipherd.client.CipherdClient.call;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.BackupKeyResponse;
import io.cipherd.api.v1.CancelKeyDeletionRequest;
import io.cipherd.api.v1.CancelKeyVersionDestructionRequest;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DisableKeyRequest;
import io.cipherd.api.v1.EnableKeyRequest;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.GetKeyCensusResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportWrappingAlgorithm;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.ListKeysRequest;
import io.cipherd.api.v1.ListKeysResponse;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RetireKeyVersionsResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyDeletionRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.SetKeyExportableRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Key administration (proto/README.md, "Key administration"): each call returns the key as it is
 * after it. Lifecycle refusals are typed ({@link KeyDisabledException}, {@link
 * KeyVersionsInUseException}, ...). Got from {@link CipherdClient#keys()}.
 */
public final class KeyAdmin {
  private final KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin;

  KeyAdmin(KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin) {
    this.admin = admin;
  }

  /** Creates a key in {@code mode} at the server's default size, with the default policy. */
  public Key create(String keyName, Mode mode) {
    return create(keyName, mode, 0, false, KeyPolicy.DEFAULT);
  }

  /**
   * Creates a key; {@code keySizeBits} 0 for the mode's default, {@code allowUnauthenticated} for
   * the modes without integrity (CBC, CTR, CFB, OFB, ECB).
   */
  public Key create(
      String keyName, Mode mode, int keySizeBits, boolean allowUnauthenticated, KeyPolicy policy) {
    return create(keyName, mode, keySizeBits, allowUnauthenticated, policy, false);
  }

  /**
   * Creates a key as {@link #create(String, Mode, int, boolean, KeyPolicy)} does; an {@code
   * exportable} one can be backed up ({@link #backup}), for good.
   */
  public Key create(
      String keyName,
      Mode mode,
      int keySizeBits,
      boolean allowUnauthenticated,
      KeyPolicy policy,
      boolean exportable) {
    return key(
        call(
            () ->
                admin
                    .createKey(
                        CreateKeyRequest.newBuilder()
                            .setKeyName(keyName)
                            .setMode(mode.toProto())
                            .setKeySizeBits(keySizeBits)
                            .setAllowUnauthenticated(allowUnauthenticated)
                            .setPolicy(KeyConversion.policy(policy))
                            .setExportable(exportable)
                            .build())
                    .getKey()));
  }

  /**
   * Creates a format-preserving key ({@link Mode#FF1}, {@code keySizeBits} 128, 192 or 256; 0 for
   * 256) with {@code format}, which every later version keeps.
   */
  public Key createFormatPreserving(
      String keyName, FpeFormat format, int keySizeBits, KeyPolicy policy) {
    CreateKeyRequest request =
        CreateKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setMode(Mode.FF1.toProto())
            .setKeySizeBits(keySizeBits)
            .setPolicy(KeyConversion.policy(policy))
            .setFpeFormat(format.toProto())
            .build();
    return key(call(() -> admin.createKey(request).getKey()));
  }

  /**
   * Imports 16, 24 or 32 bytes made elsewhere as a new version of a format-preserving key with
   * {@code format} (equal to the key's when the key exists).
   */
  public Key importFormatPreserving(String keyName, byte[] keyMaterial, FpeFormat format) {
    ImportKeyRequest request =
        ImportKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setMode(Mode.FF1.toProto())
            .setKeyMaterial(ByteString.copyFrom(keyMaterial))
            .setFpeFormat(format.toProto())
            .build();
    return key(call(() -> admin.importKey(request).getKey()));
  }

  public Key get(String keyName) {
    return key(
        call(() -> admin.getKey(GetKeyRequest.newBuilder().setKeyName(keyName).build()).getKey()));
  }

  /** Every key the caller may see, all pages read (the server's page size, 100). */
  public List<Key> list() {
    return list(0);
  }

  /**
   * Every key the caller may see, read {@code pageSize} keys per call (0 for the server's 100; the
   * server caps pages at 1000).
   */
  public List<Key> list(int pageSize) {
    if (pageSize < 0) {
      throw new IllegalArgumentException("pageSize must be 0 (the server's default) or more");
    }
    List<Key> keys = new ArrayList<>();
    String token = "";
    do {
      ListKeysRequest request =
          ListKeysRequest.newBuilder().setPageSize(pageSize).setPageToken(token).build();
      ListKeysResponse response = call(() -> admin.listKeys(request));
      response.getKeysList().forEach(key -> keys.add(key(key)));
      token = response.getNextPageToken();
    } while (!token.isEmpty());
    return List.copyOf(keys);
  }

  /** Adds a version in the key's current mode and makes it current. */
  public Key rotate(String keyName) {
    return key(
        call(
            () ->
                admin
                    .rotateKey(RotateKeyRequest.newBuilder().setKeyName(keyName).build())
                    .getKey()));
  }

  /** Adds a version in another mode (and size, 0 for its default) and makes it current. */
  public Key rotate(String keyName, Mode mode, int keySizeBits, boolean allowUnauthenticated) {
    return key(
        call(
            () ->
                admin
                    .rotateKey(
                        RotateKeyRequest.newBuilder()
                            .setKeyName(keyName)
                            .setMode(mode.toProto())
                            .setKeySizeBits(keySizeBits)
                            .setAllowUnauthenticated(allowUnauthenticated)
                            .build())
                    .getKey()));
  }

  public Key updatePolicy(String keyName, KeyPolicy policy) {
    return key(
        call(
            () ->
                admin
                    .updateKeyPolicy(
                        UpdateKeyPolicyRequest.newBuilder()
                            .setKeyName(keyName)
                            .setPolicy(KeyConversion.policy(policy))
                            .build())
                    .getKey()));
  }

  /** Imports key bytes made elsewhere as a new version (a new key if none is named so). */
  public Key importKey(
      String keyName, Mode mode, byte[] keyMaterial, boolean allowUnauthenticated) {
    return key(
        call(
            () ->
                admin
                    .importKey(
                        ImportKeyRequest.newBuilder()
                            .setKeyName(keyName)
                            .setMode(mode.toProto())
                            .setKeyMaterial(ByteString.copyFrom(keyMaterial))
                            .setAllowUnauthenticated(allowUnauthenticated)
                            .build())
                    .getKey()));
  }

  /**
   * Imports a version of a derived Vault Transit key ({@link Mode#GCM} or {@link Mode#CHACHA}
   * material as Transit exports it): it decrypts Transit's ciphertexts only, deriving each one's
   * key from the call's context with {@code kdf}, and never encrypts. The material is wrapped for
   * an import job here, as {@link #importKeyWrapped} does.
   */
  public Key importTransitDerived(String keyName, Mode mode, byte[] keyMaterial, TransitKdf kdf) {
    ImportJob job = createImportJob(keyName, false);
    ImportKeyRequest request =
        ImportKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setMode(mode.toProto())
            .setImportJobId(job.importJobId())
            .setWrappedKeyMaterial(
                ByteString.copyFrom(KeyWrapping.wrap(job.publicKeyPem(), keyMaterial)))
            .setTransitKdf(kdf.toProto())
            .build();
    return key(call(() -> admin.importKey(request).getKey()));
  }

  /**
   * A new import job for {@code keyName} (which need not exist), with an RSA-3072 key, or RSA-4096
   * when {@code rsa4096}. Needs the import operation.
   */
  public ImportJob createImportJob(String keyName, boolean rsa4096) {
    CreateImportJobRequest request =
        CreateImportJobRequest.newBuilder()
            .setKeyName(keyName)
            .setWrappingAlgorithm(
                rsa4096
                    ? ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096
                    : ImportWrappingAlgorithm
                        .IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072)
            .build();
    var job = call(() -> admin.createImportJob(request).getImportJob());
    return new ImportJob(
        job.getImportJobId(),
        job.getKeyName(),
        job.getWrappingAlgorithm()
                == ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096
            ? 4096
            : 3072,
        job.getPublicKeyPem(),
        KeyConversion.instant(job.getExpireTime()));
  }

  /**
   * {@link #importKey(String, Mode, byte[], boolean)} without the material ever in the clear on the
   * wire: creates an import job, wraps {@code keyMaterial} for it here ({@link KeyWrapping#wrap})
   * and imports the result. The way in on a server without --allow-plaintext-key-import.
   */
  public Key importKeyWrapped(
      String keyName, Mode mode, byte[] keyMaterial, boolean allowUnauthenticated) {
    ImportJob job = createImportJob(keyName, false);
    ImportKeyRequest request =
        ImportKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setMode(mode.toProto())
            .setImportJobId(job.importJobId())
            .setWrappedKeyMaterial(
                ByteString.copyFrom(KeyWrapping.wrap(job.publicKeyPem(), keyMaterial)))
            .setAllowUnauthenticated(allowUnauthenticated)
            .build();
    return key(call(() -> admin.importKey(request).getKey()));
  }

  /**
   * {@link #importLegacyKey} with the key wrapped for an import job; a {@link
   * LegacyCipher#MYSQL_AES_ECB} {@code passphrase} is folded into its key here, as MySQL does, and
   * that is wrapped.
   */
  public Key importLegacyKeyWrapped(
      String keyName,
      LegacyCipher cipher,
      LegacyIv iv,
      byte[] keyMaterial,
      byte[] fixedIv,
      byte[] passphrase) {
    byte[] material =
        passphrase.length > 0 ? KeyWrapping.foldMysqlPassphrase(passphrase) : keyMaterial;
    try {
      ImportJob job = createImportJob(keyName, false);
      ImportKeyRequest.Builder request =
          ImportKeyRequest.newBuilder()
              .setKeyName(keyName)
              .setLegacyCipher(cipher.toProto())
              .setImportJobId(job.importJobId())
              .setWrappedKeyMaterial(
                  ByteString.copyFrom(KeyWrapping.wrap(job.publicKeyPem(), material)))
              .setLegacyFixedIv(ByteString.copyFrom(fixedIv));
      if (iv != null) {
        request.setLegacyIv(iv.toProto());
      }
      return key(call(() -> admin.importKey(request.build()).getKey()));
    } finally {
      if (material != keyMaterial) {
        Arrays.fill(material, (byte) 0);
      }
    }
  }

  /**
   * Imports a decrypt-only legacy key (proto/README.md, "Legacy ciphertexts"), whose data {@link
   * CipherdClient#reEncrypt(LegacyCiphertext, byte[], String)} rewraps into a cipherd key. {@code
   * fixedIv} only with {@link LegacyIv#FIXED}; for {@link LegacyCipher#MYSQL_AES_ECB}, {@code
   * passphrase} (AES_ENCRYPT's key string) may stand instead of {@code keyMaterial}. Empty arrays
   * for what does not apply; {@code iv} null for the cipher's default.
   */
  public Key importLegacyKey(
      String keyName,
      LegacyCipher cipher,
      LegacyIv iv,
      byte[] keyMaterial,
      byte[] fixedIv,
      byte[] passphrase) {
    ImportKeyRequest.Builder request =
        ImportKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setLegacyCipher(cipher.toProto())
            .setKeyMaterial(ByteString.copyFrom(keyMaterial))
            .setLegacyFixedIv(ByteString.copyFrom(fixedIv))
            .setPassphrase(ByteString.copyFrom(passphrase));
    if (iv != null) {
      request.setLegacyIv(iv.toProto());
    }
    return key(call(() -> admin.importKey(request.build()).getKey()));
  }

  /**
   * Marks the key exportable, for good: from then on {@link #backup} may write it out. Needs the
   * admin operation.
   */
  public Key setExportable(String keyName) {
    SetKeyExportableRequest request =
        SetKeyExportableRequest.newBuilder().setKeyName(keyName).build();
    return key(call(() -> admin.setKeyExportable(request).getKey()));
  }

  /**
   * The key whole (every version's material, state and destruction schedule, its policy and state)
   * wrapped for {@code recipientPublicKeyPem}, an RSA-3072 or RSA-4096 PEM public key whose private
   * key lives offline. {@link KeyNotExportableException} for a key not made exportable. Needs the
   * export operation, which admin does not imply.
   */
  public KeyBackupFile backup(String keyName, String recipientPublicKeyPem) {
    BackupKeyRequest request =
        BackupKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setRecipientPublicKeyPem(recipientPublicKeyPem)
            .build();
    BackupKeyResponse response = call(() -> admin.backupKey(request));
    return new KeyBackupFile(response.getBackupFile().toByteArray(), key(response.getKey()));
  }

  /**
   * Creates key {@code keyName} from a serialized KeyBackup of it wrapped ({@link
   * KeyWrapping#wrap}) for import job {@code importJobId} of this client's server, made for {@code
   * keyName}; {@link AlreadyExistsException} if the key exists (a restore never overwrites). {@link
   * #restoreBackup} does the whole restore from a file. Needs the import operation on {@code
   * keyName}.
   */
  public Key restore(String keyName, String importJobId, byte[] wrappedKeyBackup) {
    RestoreKeyRequest request =
        RestoreKeyRequest.newBuilder()
            .setKeyName(keyName)
            .setImportJobId(importJobId)
            .setWrappedKeyBackup(ByteString.copyFrom(wrappedKeyBackup))
            .build();
    return key(call(() -> admin.restoreKey(request).getKey()));
  }

  /**
   * Restores a backup file ({@link KeyBackupFile#file}) into this client's server: opens it with
   * the recipient's private key ({@link OpenedKeyBackup#open}, which refuses another recipient's
   * file or a tampered one), creates an import job for the key's name, wraps the backup for it and
   * calls {@link #restore}. The opened backup is zeroed before this returns.
   */
  public Key restoreBackup(byte[] file, String identityPem) {
    try (OpenedKeyBackup opened = OpenedKeyBackup.open(file, identityPem)) {
      ImportJob job = createImportJob(opened.key().name(), false);
      return restore(
          opened.key().name(),
          job.importJobId(),
          KeyWrapping.wrap(job.publicKeyPem(), opened.keyBackup()));
    }
  }

  /**
   * Each version's usage and whether it was used within {@code quietPeriod} (null for the server's
   * default).
   */
  public KeyCensus census(String keyName, Duration quietPeriod) {
    GetKeyCensusRequest.Builder request = GetKeyCensusRequest.newBuilder().setKeyName(keyName);
    if (quietPeriod != null) {
      request.setQuietPeriod(KeyConversion.duration(quietPeriod));
    }
    GetKeyCensusResponse response = call(() -> admin.getKeyCensus(request.build()));
    return new KeyCensus(
        key(response.getKey()),
        response.getVersionsList().stream()
            .map(
                v ->
                    new KeyCensus.Version(
                        v.getVersion(),
                        KeyConversion.usage(v.getUsage()),
                        v.getInUse(),
                        v.getSubjectKeys()))
            .toList(),
        response.getSafeMinDecryptionVersion());
  }

  public Key disable(String keyName) {
    return key(
        call(
            () ->
                admin
                    .disableKey(DisableKeyRequest.newBuilder().setKeyName(keyName).build())
                    .getKey()));
  }

  public Key enable(String keyName) {
    return key(
        call(
            () ->
                admin
                    .enableKey(EnableKeyRequest.newBuilder().setKeyName(keyName).build())
                    .getKey()));
  }

  /**
   * Schedules versions for destruction after {@code pendingWindow} (null for the server's default).
   */
  public Key scheduleVersionDestruction(
      String keyName, List<Integer> versions, Duration pendingWindow) {
    ScheduleKeyVersionDestructionRequest.Builder request =
        ScheduleKeyVersionDestructionRequest.newBuilder()
            .setKeyName(keyName)
            .addAllVersions(versions);
    if (pendingWindow != null) {
      request.setPendingWindow(KeyConversion.duration(pendingWindow));
    }
    return key(call(() -> admin.scheduleKeyVersionDestruction(request.build()).getKey()));
  }

  public Key cancelVersionDestruction(String keyName, List<Integer> versions) {
    return key(
        call(
            () ->
                admin
                    .cancelKeyVersionDestruction(
                        CancelKeyVersionDestructionRequest.newBuilder()
                            .setKeyName(keyName)
                            .addAllVersions(versions)
                            .build())
                    .getKey()));
  }

  public Key scheduleDeletion(String keyName, Duration pendingWindow) {
    ScheduleKeyDeletionRequest.Builder request =
        ScheduleKeyDeletionRequest.newBuilder().setKeyName(keyName);
    if (pendingWindow != null) {
      request.setPendingWindow(KeyConversion.duration(pendingWindow));
    }
    return key(call(() -> admin.scheduleKeyDeletion(request.build()).getKey()));
  }

  public Key cancelDeletion(String keyName) {
    return key(
        call(
            () ->
                admin
                    .cancelKeyDeletion(
                        CancelKeyDeletionRequest.newBuilder().setKeyName(keyName).build())
                    .getKey()));
  }

  /**
   * Retires the versions below {@code belowVersion}: raises minDecryptionVersion and schedules
   * their destruction, refused with {@link KeyVersionsInUseException} while any was used within
   * {@code quietPeriod} (null for the server's default). {@code validateOnly} says what it would
   * do.
   */
  public Retirement retireVersions(
      String keyName,
      int belowVersion,
      Duration quietPeriod,
      Duration pendingWindow,
      boolean validateOnly) {
    return retireVersions(
        keyName, belowVersion, quietPeriod, pendingWindow, validateOnly, List.of());
  }

  /**
   * Retires as above, refused also while one of {@code inventories} (scans of the stored data)
   * still counts ciphertexts under a version to retire ({@link KeyVersionsInUseException#source()}
   * names it).
   */
  public Retirement retireVersions(
      String keyName,
      int belowVersion,
      Duration quietPeriod,
      Duration pendingWindow,
      boolean validateOnly,
      List<DataInventory> inventories) {
    RetireKeyVersionsRequest.Builder request =
        RetireKeyVersionsRequest.newBuilder()
            .setKeyName(keyName)
            .setBelowVersion(belowVersion)
            .setValidateOnly(validateOnly);
    inventories.forEach(inventory -> request.addInventories(inventory.toProto()));
    if (quietPeriod != null) {
      request.setQuietPeriod(KeyConversion.duration(quietPeriod));
    }
    if (pendingWindow != null) {
      request.setPendingWindow(KeyConversion.duration(pendingWindow));
    }
    RetireKeyVersionsResponse response = call(() -> admin.retireKeyVersions(request.build()));
    return new Retirement(key(response.getKey()), List.copyOf(response.getRetiredVersionsList()));
  }

  private static Key key(io.cipherd.api.v1.Key key) {
    return KeyConversion.key(key);
  }
}
