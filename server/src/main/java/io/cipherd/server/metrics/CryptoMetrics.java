package io.cipherd.server.metrics;

import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.engine.CryptoOperation;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Counts crypto operations, their bytes and per-version encryptions. Meters are created once per
 * label combination and looked up through nested maps keyed by the operation, the version's {@link
 * KeyType} (one instance per type, labelled by its name) and interned strings, so a call allocates
 * nothing. The {@code key} label is the key's name only when key names are enabled, otherwise
 * {@value CipherdMetrics#ALL_KEYS}, which bounds the number of series.
 */
public final class CryptoMetrics implements CryptoObserver {
  static final String OPERATIONS = "cipherd.crypto.operations";
  static final String BYTES = "cipherd.crypto.bytes";
  static final String VERSION_ENCRYPTIONS = "cipherd.key.version.encryptions";
  static final String VERSION_DECRYPTIONS = "cipherd.key.version.decryptions";
  static final String VERSION_REWRAPS = "cipherd.key.version.rewraps";

  /** Prometheus: {@code cipherd_key_version_pending_destruction_use_total}. */
  static final String PENDING_DESTRUCTION_USE = "cipherd.key.version.pending.destruction.use";

  /** Mode and key labels of a failure that happened before a key version was resolved. */
  static final String NONE = "none";

  private final MeterRegistry registry;
  private final boolean keyNames;
  private final Map<CryptoOperation, Map<KeyType, ConcurrentMap<String, KeyMeters>>> meters =
      new EnumMap<>(CryptoOperation.class);
  private final Map<CryptoOperation, ConcurrentMap<String, Counter>> unresolvedFailures =
      new EnumMap<>(CryptoOperation.class);
  private final ConcurrentMap<String, Counter> pendingDestructionUses = new ConcurrentHashMap<>();

  public CryptoMetrics(MeterRegistry registry, boolean keyNames) {
    this.registry = registry;
    this.keyNames = keyNames;
    for (CryptoOperation operation : CryptoOperation.values()) {
      // Filled here and only read afterwards; every KeyType is an enum constant (identity
      // equality).
      Map<KeyType, ConcurrentMap<String, KeyMeters>> byType = new HashMap<>();
      for (KeyType type : KeyType.values()) {
        byType.put(type, new ConcurrentHashMap<>());
      }
      meters.put(operation, byType);
      unresolvedFailures.put(operation, new ConcurrentHashMap<>());
    }
    if (!keyNames) {
      // The one series there will ever be, at 0 from the start, so an alert's increase() sees the
      // first use.
      pendingDestructionUse(CipherdMetrics.ALL_KEYS);
    }
  }

  @Override
  public void succeeded(
      CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
    KeyMeters key = meters(operation, version);
    key.ok.increment(items);
    key.bytes.increment(plaintextBytes);
    if (operation != CryptoOperation.INDEX && operation != CryptoOperation.INDEX_LOOKUP) {
      key.version(version.version()).increment(items);
    }
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
    String outcome = Outcomes.of(error);
    if (version == null) {
      unresolvedFailures
          .get(operation)
          .computeIfAbsent(outcome, o -> operations(operation, NONE, NONE, o))
          .increment();
    } else {
      meters(operation, version).failure(outcome).increment();
    }
  }

  /**
   * Counts a call refused because the version it named is pending destruction (the audit record
   * names the version and caller), then the failure as any other.
   */
  @Override
  public void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
    if (error instanceof CipherdException e
        && e.kind() == ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED) {
      pendingDestructionUse(keyNames ? named.keyName() : CipherdMetrics.ALL_KEYS).increment();
    }
    failed(operation, null, error);
  }

  private Counter pendingDestructionUse(String key) {
    Counter found = pendingDestructionUses.get(key);
    return found != null
        ? found
        : pendingDestructionUses.computeIfAbsent(
            key,
            k ->
                Counter.builder(PENDING_DESTRUCTION_USE)
                    .description(
                        "Calls that named a key version pending destruction (refused): data under it"
                            + " still exists, and destroying it would lose that data")
                    .tags("key", k)
                    .register(registry));
  }

  private KeyMeters meters(CryptoOperation operation, KeyVersionRef version) {
    String key = keyNames ? version.keyName() : CipherdMetrics.ALL_KEYS;
    ConcurrentMap<String, KeyMeters> byKey = meters.get(operation).get(version.type());
    KeyMeters found = byKey.get(key);
    return found != null
        ? found
        : byKey.computeIfAbsent(key, k -> new KeyMeters(operation, k, version.type()));
  }

  private Counter operations(CryptoOperation operation, String key, String mode, String outcome) {
    return Counter.builder(OPERATIONS)
        .description(
            "Crypto operations by operation, key, mode and outcome; a rewrap counts one decrypt and one encrypt")
        .tags("operation", label(operation), "key", key, "mode", mode, "outcome", outcome)
        .register(registry);
  }

  private static String label(CryptoOperation operation) {
    return operation.name().toLowerCase(Locale.ROOT);
  }

  /** The meters of one (operation, key, mode). */
  private final class KeyMeters {
    private final CryptoOperation operation;
    private final String key;
    private final String mode;
    final Counter ok;
    final Counter bytes;
    private final ConcurrentMap<String, Counter> failures = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, Counter> versions = new ConcurrentHashMap<>();

    KeyMeters(CryptoOperation operation, String key, KeyType type) {
      this.operation = operation;
      this.key = key;
      this.mode = type.typeName();
      this.ok = operations(operation, key, this.mode, Outcomes.OK);
      this.bytes =
          Counter.builder(BYTES)
              .description("Plaintext bytes encrypted or decrypted successfully")
              .baseUnit("bytes")
              .tags("operation", label(operation), "key", key, "mode", this.mode)
              .register(registry);
    }

    Counter failure(String outcome) {
      return failures.computeIfAbsent(outcome, o -> operations(operation, key, mode, o));
    }

    Counter version(int version) {
      Counter found = versions.get(version);
      return found != null
          ? found
          : versions.computeIfAbsent(
              version,
              v ->
                  Counter.builder(versionMeter())
                      .description(
                          switch (operation) {
                            case ENCRYPT ->
                                "Encryptions by key version; shows whether old versions are still used to encrypt";
                            case DECRYPT ->
                                "Decryptions by key version (rewraps included); shows which versions data is still read with";
                            default ->
                                "Ciphertexts rewrapped out of each key version; shows how a migration progresses";
                          })
                      .tags("key", key, "version", Integer.toString(v))
                      .register(registry));
    }

    private String versionMeter() {
      return switch (operation) {
        case ENCRYPT -> VERSION_ENCRYPTIONS;
        case DECRYPT -> VERSION_DECRYPTIONS;
        default -> VERSION_REWRAPS;
      };
    }
  }
}
