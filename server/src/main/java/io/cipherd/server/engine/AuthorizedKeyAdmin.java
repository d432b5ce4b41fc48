package io.cipherd.server.engine;

import io.cipherd.server.crypto.keywrap.UnwrapFailedException;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.legacy.LegacyKeyMaterial;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.importjobs.BackupRecipient;
import io.cipherd.server.importjobs.ImportJob;
import io.cipherd.server.importjobs.ImportJobUnusableException;
import io.cipherd.server.importjobs.ImportJobs;
import io.cipherd.server.importjobs.PlaintextImportDisabledException;
import io.cipherd.server.importjobs.WrappingAlgorithm;
import io.cipherd.server.keys.ExportedKey;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNames;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.lifecycle.DataInventory;
import io.cipherd.server.lifecycle.KeyAdmin;
import io.cipherd.server.lifecycle.KeyCensus;
import io.cipherd.server.lifecycle.Retirement;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.CallerIdentity;
import io.cipherd.server.security.Operation;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@link KeyAdmin} behind the {@link Authorizer}: the operations of the key-admin API on domain
 * types, each after the caller is allowed it, as {@link CryptoEngine} does for the crypto API;
 * authorization lives in this layer only. Every operation may reach the key store.
 */
public final class AuthorizedKeyAdmin {
  private static final int DEFAULT_PAGE_SIZE = 100;
  private static final int MAX_PAGE_SIZE = 1000;

  private final KeyAdmin admin;
  private final Authorizer authorizer;
  private final ImportJobs importJobs;
  private final boolean allowPlaintextImport;

  /**
   * Key administration for callers {@code authorizer} allows; imports take material wrapped for one
   * of {@code importJobs}, and in the clear only when {@code allowPlaintextImport} (the server's
   * {@code --allow-plaintext-key-import}).
   */
  public AuthorizedKeyAdmin(
      KeyAdmin admin, Authorizer authorizer, ImportJobs importJobs, boolean allowPlaintextImport) {
    this.admin = admin;
    this.authorizer = authorizer;
    this.importJobs = importJobs;
    this.allowPlaintextImport = allowPlaintextImport;
  }

  /** One page of a listing, and the token of the next page (empty on the last one). */
  public record KeyPage(List<KeyMetadata> keys, String nextPageToken) {}

  /** Creates a key (policy null: the default); needs {@code admin} on it. */
  public KeyMetadata create(String name, KeyTemplate template, KeyPolicy policy) {
    return create(name, template, policy, /* exportable= */ false);
  }

  /**
   * Creates a key (policy null: the default), {@code exportable} or not; needs {@code admin} on it.
   * An exportable key is created, then marked: a failure between the two leaves a key that is not
   * exportable, which SetKeyExportable marks.
   */
  public KeyMetadata create(
      String name, KeyTemplate template, KeyPolicy policy, boolean exportable) {
    authorizer.check(Operation.ADMIN, name);
    KeyMetadata created = admin.create(name, template, policy);
    return exportable ? admin.setExportable(name) : created;
  }

  /** Marks a key exportable for good (idempotent); needs {@code admin}. */
  public KeyMetadata setExportable(String name) {
    authorizer.check(Operation.ADMIN, name);
    return admin.setExportable(name);
  }

  /**
   * Key {@code name} whole, for a backup wrapped for the RSA public key {@code recipientPem}: needs
   * {@code export}, which {@code admin} does not imply, checked before the recipient or the key is
   * read, so a caller without it gets one refusal whatever the key and the recipient.
   * INVALID_ARGUMENT for a recipient that is not RSA 3072 or 4096, or longer than {@link
   * BackupRecipient#MAX_PEM_CHARS}; KEY_NOT_EXPORTABLE unless the key is exportable. The caller
   * wipes the result's key.
   */
  public BackupSource backup(String name, String recipientPem) {
    authorizer.check(Operation.EXPORT, name);
    BackupRecipient recipient = BackupRecipient.parse(recipientPem);
    return new BackupSource(admin.export(name), recipient);
  }

  /**
   * Restores key {@code name} from the key backup {@code wrapped} holds for import job {@code
   * jobId}: needs {@code import} on {@code name}, checked before the job is looked at or anything
   * is unwrapped, as every call naming a key. An empty name is INVALID_ARGUMENT, and so is a job
   * made for another key (the job is left unused). The job ends with this call, as an ImportKey
   * ends it. {@code parse} reads the unwrapped bytes (which it must not keep) into a key; a blob
   * that does not unwrap, or whose bytes {@code parse} refuses as a backup by throwing {@link
   * IllegalArgumentException}, fails with one message ({@link BackupUnwrapFailedException}). A
   * backup of another key than the job's is IMPORT_JOB_UNUSABLE.
   */
  public KeyMetadata restore(
      String name, String jobId, byte[] wrapped, Function<byte[], ExportedKey> parse) {
    if (name.isEmpty()) {
      throw new InvalidArgumentException(
          "key_name is required: the key the backup restores, which its import job was made for");
    }
    authorizer.check(Operation.IMPORT, name);
    if (importJobs.keyNameOf(jobId).filter(jobKey -> !jobKey.equals(name)).isPresent()) {
      // The id is 128 random bits the caller was given: this says nothing about others' jobs.
      throw new InvalidArgumentException(
          "import_job_id names a job made for another key than key_name; create the job"
              + " (CreateImportJob) for the key the backup restores");
    }
    byte[] serialized;
    try {
      serialized = importJobs.unwrapBackupOnce(jobId, name, wrapped);
    } catch (UnwrapFailedException e) {
      throw new BackupUnwrapFailedException();
    }
    ExportedKey exported;
    try {
      exported = parse.apply(serialized);
    } finally {
      Arrays.fill(serialized, (byte) 0);
    }
    try {
      if (!exported.key().name().equals(name)) {
        throw new ImportJobUnusableException(exported.key().name());
      }
      return admin.restore(exported);
    } finally {
      exported.wipe();
    }
  }

  /** A key's metadata; needs {@code inspect} or {@code admin} on it. */
  public KeyMetadata describe(String name) {
    checkInspectOrAdmin(name);
    return admin.describe(name);
  }

  /** Each version's usage, for a caller who may describe the key. */
  public Map<Integer, VersionUsage> usage(String name) {
    checkInspectOrAdmin(name);
    return admin.usage(name);
  }

  /** Which versions still see traffic, for a caller who may describe the key. */
  public KeyCensus census(String name, Duration quietPeriod) {
    checkInspectOrAdmin(name);
    return admin.census(name, quietPeriod);
  }

  private void checkInspectOrAdmin(String name) {
    if (!authorizer.allows(Operation.ADMIN, name)) {
      authorizer.check(Operation.INSPECT, name);
    }
  }

  /**
   * The keys after {@code pageToken} (the last name of the previous page: names are unique and
   * sorted), {@code pageSize} at most (0: the default), among those the caller may inspect or
   * administer. The names are filtered before any key is read, so the store reads only the page's
   * keys, and the page token is the page's own last name: it never names a key the caller may not
   * see, and a caller who may see none gets an empty page and no token.
   */
  public KeyPage list(String pageToken, int pageSize) {
    if (pageSize < 0) {
      throw new InvalidArgumentException("page_size must not be negative");
    }
    int size = pageSize == 0 ? DEFAULT_PAGE_SIZE : Math.min(pageSize, MAX_PAGE_SIZE);
    // One name more than the page: whether it exists says whether there is a next page.
    List<String> visible = admin.names(pageToken, size + 1, this::mayDescribe);
    List<String> page = visible.subList(0, Math.min(size, visible.size()));
    return new KeyPage(admin.read(page), visible.size() > size ? page.get(size - 1) : "");
  }

  /**
   * Whether the caller may inspect or administer {@code name}; asks the policy only, never the
   * store.
   */
  private boolean mayDescribe(String name) {
    return authorizer.allows(Operation.INSPECT, name) || authorizer.allows(Operation.ADMIN, name);
  }

  /** Adds a generated version; needs {@code admin}. */
  /**
   * Told the name of each key this admin rotated (the subject sweep, started in the background).
   */
  public void afterRotation(Consumer<String> listener) {
    this.afterRotation = listener;
  }

  private volatile Consumer<String> afterRotation = name -> {};

  public KeyMetadata rotate(String name, KeyTemplate template) {
    authorizer.check(Operation.ADMIN, name);
    KeyMetadata rotated = admin.rotate(name, template);
    afterRotation.accept(name);
    return rotated;
  }

  /** Replaces a key's policy; needs {@code admin}. A missing policy is refused. */
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    authorizer.check(Operation.ADMIN, name);
    if (policy == null) {
      throw new InvalidArgumentException("policy is required");
    }
    return admin.updatePolicy(name, policy);
  }

  /**
   * Adds caller-supplied key bytes, sent in the clear, as a new version; needs {@code import}, and
   * the server must allow plaintext import (PLAINTEXT_IMPORT_DISABLED otherwise, after the caller
   * is authorized, so a caller without {@code import} learns nothing of the setting).
   */
  public KeyMetadata importVersion(String name, KeyTemplate template, byte[] material) {
    return importVersion(name, template, material, /* transitKdf= */ null);
  }

  /**
   * Adds caller-supplied key bytes as a new version, of a derived Vault Transit key when {@code
   * transitKdf} is not null; needs {@code import}.
   */
  public KeyMetadata importVersion(
      String name, KeyTemplate template, byte[] material, TransitKdf transitKdf) {
    authorizer.check(Operation.IMPORT, name);
    checkPlaintextImportAllowed(name);
    return admin.importVersion(name, template, material, transitKdf);
  }

  /**
   * Adds a decrypt-only legacy version, its key given as {@code keyMaterial} or folded from a MySQL
   * {@code passphrase} (exactly one non-empty), both in the clear; needs {@code import} and
   * plaintext import allowed. The caller wipes both arrays.
   */
  public KeyMetadata importLegacyVersion(
      String name, LegacyFormat format, byte[] keyMaterial, byte[] passphrase) {
    authorizer.check(Operation.IMPORT, name);
    checkPlaintextImportAllowed(name);
    byte[] material = LegacyKeyMaterial.of(format.cipher(), keyMaterial, passphrase);
    try {
      return admin.importLegacyVersion(name, format, material);
    } finally {
      Arrays.fill(material, (byte) 0);
    }
  }

  /**
   * A new import job for {@code name} (which need not exist yet); needs {@code import} on it.
   * RESOURCE_EXHAUSTED when the caller or the replica holds as many live jobs as allowed.
   */
  public ImportJob createImportJob(String name, WrappingAlgorithm algorithm) {
    authorizer.check(Operation.IMPORT, name);
    KeyNames.check(name);
    return importJobs.create(CallerIdentity.current(), name, algorithm);
  }

  /**
   * Adds the key material {@code wrapped} holds for import job {@code jobId} as a new version of
   * {@code name}, checked and stored as {@link #importVersion} does (of a derived Vault Transit key
   * when {@code transitKdf} is not null); needs {@code import}. The job ends with this call,
   * whatever its outcome.
   */
  public KeyMetadata importWrappedVersion(
      String name, KeyTemplate template, String jobId, byte[] wrapped, TransitKdf transitKdf) {
    authorizer.check(Operation.IMPORT, name);
    byte[] material = importJobs.unwrapOnce(jobId, name, wrapped);
    try {
      return admin.importVersion(name, template, material, transitKdf);
    } finally {
      Arrays.fill(material, (byte) 0);
    }
  }

  /**
   * Adds a decrypt-only legacy version whose key (never a passphrase) {@code wrapped} holds for
   * import job {@code jobId}; needs {@code import}. The job ends with this call.
   */
  public KeyMetadata importWrappedLegacyVersion(
      String name, LegacyFormat format, String jobId, byte[] wrapped) {
    authorizer.check(Operation.IMPORT, name);
    byte[] unwrapped = importJobs.unwrapOnce(jobId, name, wrapped);
    byte[] material = null;
    try {
      material = LegacyKeyMaterial.of(format.cipher(), unwrapped, new byte[0]);
      return admin.importLegacyVersion(name, format, material);
    } finally {
      Arrays.fill(unwrapped, (byte) 0);
      if (material != null) {
        Arrays.fill(material, (byte) 0);
      }
    }
  }

  private void checkPlaintextImportAllowed(String name) {
    if (!allowPlaintextImport) {
      throw new PlaintextImportDisabledException(name);
    }
  }

  /** Makes a key refuse every cryptographic call; needs {@code admin}. */
  public KeyMetadata disable(String name) {
    authorizer.check(Operation.ADMIN, name);
    return admin.lifecycle().disable(name);
  }

  /** Serves a disabled key again; needs {@code admin}. */
  public KeyMetadata enable(String name) {
    authorizer.check(Operation.ADMIN, name);
    return admin.lifecycle().enable(name);
  }

  /** Schedules versions for destruction (window null: the default); needs {@code destroy}. */
  public KeyMetadata scheduleDestruction(String name, List<Integer> versions, Duration window) {
    authorizer.check(Operation.DESTROY, name);
    return admin.lifecycle().scheduleDestruction(name, versions, window);
  }

  /** Cancels versions' scheduled destruction; needs {@code destroy}. */
  public KeyMetadata cancelDestruction(String name, List<Integer> versions) {
    authorizer.check(Operation.DESTROY, name);
    return admin.lifecycle().cancelDestruction(name, versions);
  }

  /** Schedules a key's deletion (window null: the default); needs {@code destroy}. */
  public KeyMetadata scheduleDeletion(String name, Duration window) {
    authorizer.check(Operation.DESTROY, name);
    return admin.lifecycle().scheduleDeletion(name, window);
  }

  /** Cancels a key's scheduled deletion; it comes back disabled. Needs {@code destroy}. */
  public KeyMetadata cancelDeletion(String name) {
    authorizer.check(Operation.DESTROY, name);
    return admin.lifecycle().cancelDeletion(name);
  }

  /**
   * Retires the versions below {@code belowVersion} (durations null: the defaults) unless {@code
   * inventories} count ciphertexts under them or they were used lately; needs {@code destroy}, also
   * with {@code validateOnly}, which shows what the key's use looks like.
   */
  public Retirement retire(
      String name,
      int belowVersion,
      Duration quietPeriod,
      Duration pendingWindow,
      boolean validateOnly,
      List<DataInventory> inventories) {
    authorizer.check(Operation.DESTROY, name);
    return admin
        .lifecycle()
        .retire(name, belowVersion, quietPeriod, pendingWindow, validateOnly, inventories);
  }
}
