package io.cipherd.server.metrics;

import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditStore;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.UsageStore;
import io.cipherd.server.keys.VersionUsage;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.crypto.SecretKey;

/**
 * A {@link KeyStore}, and its {@link UsageStore} and {@link AuditStore} views, that times every
 * call by operation and outcome ({@link StoreCallTimers}).
 */
public final class MeteredKeyStore implements KeyStore {
  static final String CALLS = "cipherd.keystore.calls";

  private final KeyStore delegate;
  private final StoreCallTimers timers;

  public MeteredKeyStore(KeyStore delegate, MeterRegistry registry) {
    this.delegate = delegate;
    this.timers =
        new StoreCallTimers(
            registry,
            CALLS,
            "Key store calls by operation and outcome; outcome other than ok or key_not_found is an"
                + " error");
  }

  @Override
  public List<String> listKeyNames() {
    return timed("list_key_names", delegate::listKeyNames);
  }

  @Override
  public Optional<KeyMetadata> readKey(String name) {
    return timed("read_key", () -> delegate.readKey(name));
  }

  @Override
  public SecretKey readMaterial(String name, KeyVersionInfo version) {
    return timed("read_material", () -> delegate.readMaterial(name, version));
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    return timed("create_key", () -> delegate.createKey(name, first, policy));
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    return timed("add_version", () -> delegate.addVersion(name, expectedCurrentVersion, next));
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    return timed("update_policy", () -> delegate.updatePolicy(name, policy));
  }

  @Override
  public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    return timed("update_lifecycle", () -> delegate.updateLifecycle(expected, next));
  }

  @Override
  public KeyMetadata setExportable(String name) {
    return timed("set_exportable", () -> delegate.setExportable(name));
  }

  @Override
  public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    return timed("restore_key", () -> delegate.restoreKey(key, live));
  }

  /** {@code usage}'s calls, timed with this store's others. */
  public UsageStore usage(UsageStore usage) {
    return new UsageStore() {
      @Override
      public Map<Integer, VersionUsage> readUsage(String name) {
        return timed("read_usage", () -> usage.readUsage(name));
      }

      @Override
      public Map<Integer, VersionUsage> addUsage(String name, Map<Integer, VersionUsage> delta) {
        return timed("add_usage", () -> usage.addUsage(name, delta));
      }
    };
  }

  /** {@code audit}'s calls, timed with this store's others. */
  public AuditStore audit(AuditStore audit) {
    return new AuditStore() {
      @Override
      public byte[] auditKeyMaterial() {
        return timed("audit_key", audit::auditKeyMaterial);
      }

      @Override
      public Optional<AuditHead> readAuditHead(String trail) {
        return timed("read_audit_head", () -> audit.readAuditHead(trail));
      }

      @Override
      public boolean writeAuditHead(AuditHead expected, AuditHead next) {
        return timed("write_audit_head", () -> audit.writeAuditHead(expected, next));
      }
    };
  }

  @Override
  public void close() {
    delegate.close();
  }

  private <T> T timed(String operation, Supplier<T> call) {
    return timers.timed(operation, call);
  }
}
