package io.cipherd.server.keys;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.SecretKey;

/**
 * A {@link KeyStore} decorator for tests: counts every call by method, and can run a hook just
 * before or just after the next write, to stage races at exact points.
 */
public final class CountingKeyStore implements KeyStore, UsageStore, AuditStore {
  private final KeyStore delegate;
  private final UsageStore usage;
  private final AuditStore audit;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final AtomicReference<Runnable> beforeNextAddVersion = new AtomicReference<>();
  private final AtomicReference<Runnable> afterNextAddVersion = new AtomicReference<>();
  private final AtomicReference<Runnable> beforeNextCreateKey = new AtomicReference<>();
  private final AtomicReference<Runnable> beforeNextUpdateLifecycle = new AtomicReference<>();

  public <S extends KeyStore & UsageStore & AuditStore> CountingKeyStore(S delegate) {
    this.delegate = delegate;
    this.usage = delegate;
    this.audit = delegate;
  }

  /** Calls of {@code method} so far. */
  public int calls(String method) {
    AtomicInteger n = calls.get(method);
    return n == null ? 0 : n.get();
  }

  /** Calls of every method so far. */
  public int totalCalls() {
    return calls.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  public void resetCounts() {
    calls.clear();
  }

  /** Runs {@code hook} once, at the start of the next addVersion, before it reaches the store. */
  public void beforeNextAddVersion(Runnable hook) {
    beforeNextAddVersion.set(hook);
  }

  /** Runs {@code hook} once, after the next addVersion is stored but before it returns. */
  public void afterNextAddVersion(Runnable hook) {
    afterNextAddVersion.set(hook);
  }

  /**
   * Runs {@code hook} once, at the start of the next updateLifecycle, before it reaches the store.
   */
  public void beforeNextUpdateLifecycle(Runnable hook) {
    beforeNextUpdateLifecycle.set(hook);
  }

  /** Runs {@code hook} once, at the start of the next createKey, before it reaches the store. */
  public void beforeNextCreateKey(Runnable hook) {
    beforeNextCreateKey.set(hook);
  }

  @Override
  public List<String> listKeyNames() {
    count("listKeyNames");
    return delegate.listKeyNames();
  }

  @Override
  public Optional<KeyMetadata> readKey(String name) {
    count("readKey");
    return delegate.readKey(name);
  }

  @Override
  public SecretKey readMaterial(String name, KeyVersionInfo version) {
    count("readMaterial");
    return delegate.readMaterial(name, version);
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    count("createKey");
    runOnce(beforeNextCreateKey);
    return delegate.createKey(name, first, policy);
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    count("addVersion");
    runOnce(beforeNextAddVersion);
    KeyMetadata stored = delegate.addVersion(name, expectedCurrentVersion, next);
    runOnce(afterNextAddVersion);
    return stored;
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    count("updatePolicy");
    return delegate.updatePolicy(name, policy);
  }

  @Override
  public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    count("updateLifecycle");
    Runnable hook = beforeNextUpdateLifecycle.getAndSet(null);
    if (hook != null) {
      hook.run();
    }
    return delegate.updateLifecycle(expected, next);
  }

  @Override
  public KeyMetadata setExportable(String name) {
    count("setExportable");
    return delegate.setExportable(name);
  }

  @Override
  public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    count("restoreKey");
    return delegate.restoreKey(key, live);
  }

  @Override
  public byte[] auditKeyMaterial() {
    count("auditKeyMaterial");
    return audit.auditKeyMaterial();
  }

  @Override
  public Optional<AuditHead> readAuditHead(String trail) {
    count("readAuditHead");
    return audit.readAuditHead(trail);
  }

  @Override
  public boolean writeAuditHead(AuditHead expected, AuditHead next) {
    count("writeAuditHead");
    return audit.writeAuditHead(expected, next);
  }

  @Override
  public Map<Integer, VersionUsage> readUsage(String name) {
    count("readUsage");
    return usage.readUsage(name);
  }

  @Override
  public Map<Integer, VersionUsage> addUsage(String name, Map<Integer, VersionUsage> delta) {
    count("addUsage");
    return usage.addUsage(name, delta);
  }

  @Override
  public void close() {
    delegate.close();
  }

  private void count(String method) {
    calls.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
  }

  private static void runOnce(AtomicReference<Runnable> hook) {
    Runnable r = hook.getAndSet(null);
    if (r != null) {
      r.run();
    }
  }
}
