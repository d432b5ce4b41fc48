package io.cipherd.server.metrics;

import io.cipherd.server.crypto.Mode;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.engine.CryptoOperation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Counts crypto operations, their bytes and per-version encryptions. Meters are created once per
 * label combination and looked up through nested maps keyed by enums and interned strings, so a
 * call allocates nothing. The {@code key} label is the key's name only when key names are enabled,
 * otherwise {@value CipherdMetrics#ALL_KEYS}, which bounds the number of series.
 */
public final class CryptoMetrics implements CryptoObserver {
  static final String OPERATIONS = "cipherd.crypto.operations";
  static final String BYTES = "cipherd.crypto.bytes";
  static final String VERSION_ENCRYPTIONS = "cipherd.key.version.encryptions";
  static final String VERSION_DECRYPTIONS = "cipherd.key.version.decryptions";
  static final String VERSION_REWRAPS = "cipherd.key.version.rewraps";

  /** Mode and key labels of a failure that happened before a key version was resolved. */
  static final String NONE = "none";

  private final MeterRegistry registry;
  private final boolean keyNames;
  private final Map<CryptoOperation, Map<Mode, ConcurrentMap<String, KeyMeters>>> meters =
      new EnumMap<>(CryptoOperation.class);
  private final Map<CryptoOperation, ConcurrentMap<String, Counter>> unresolvedFailures =
      new EnumMap<>(CryptoOperation.class);

  public CryptoMetrics(MeterRegistry registry, boolean keyNames) {
    this.registry = registry;
    this.keyNames = keyNames;
    for (CryptoOperation operation : CryptoOperation.values()) {
      Map<Mode, ConcurrentMap<String, KeyMeters>> byMode = new EnumMap<>(Mode.class);
      for (Mode mode : Mode.values()) {
        byMode.put(mode, new ConcurrentHashMap<>());
      }
      meters.put(operation, byMode);
      unresolvedFailures.put(operation, new ConcurrentHashMap<>());
    }
  }

  @Override
  public void succeeded(CryptoOperation operation, EnvelopeHeader header, int plaintextBytes) {
    KeyMeters key = meters(operation, header);
    key.ok.increment();
    key.bytes.increment(plaintextBytes);
    if (operation != CryptoOperation.INDEX) {
      key.version(header.version()).increment();
    }
  }

  @Override
  public void failed(CryptoOperation operation, EnvelopeHeader header, RuntimeException error) {
    String outcome = Outcomes.of(error);
    if (header == null) {
      unresolvedFailures
          .get(operation)
          .computeIfAbsent(outcome, o -> operations(operation, NONE, NONE, o))
          .increment();
    } else {
      meters(operation, header).failure(outcome).increment();
    }
  }

  private KeyMeters meters(CryptoOperation operation, EnvelopeHeader header) {
    String key = keyNames ? header.keyName() : CipherdMetrics.ALL_KEYS;
    ConcurrentMap<String, KeyMeters> byKey = meters.get(operation).get(header.mode());
    KeyMeters found = byKey.get(key);
    return found != null
        ? found
        : byKey.computeIfAbsent(key, k -> new KeyMeters(operation, k, header.mode()));
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

    KeyMeters(CryptoOperation operation, String key, Mode mode) {
      this.operation = operation;
      this.key = key;
      this.mode = mode.headerName();
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
