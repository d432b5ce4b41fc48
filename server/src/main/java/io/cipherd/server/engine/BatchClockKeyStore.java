package io.cipherd.server.engine;

import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.subjectkeys.SubjectClock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.crypto.SecretKey;

/**
 * The key store as a batch sees it: each call, answered or failed, moves the time of the batch
 * under way on the calling thread to when it returned ({@link SubjectClock#waited}). A batch that
 * waited seconds for the key store (a Vault failover, a slow disk) judges its later items' subject
 * keys at the time the wait ended, so another replica's erasure reaches them within the subject
 * cache's TTL whatever the store did. Outside a batch the calls go straight through.
 */
public final class BatchClockKeyStore implements KeyStore {
  private final KeyStore delegate;

  public BatchClockKeyStore(KeyStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public List<String> listKeyNames() {
    return waitFor(delegate::listKeyNames);
  }

  @Override
  public Optional<KeyMetadata> readKey(String name) {
    return waitFor(() -> delegate.readKey(name));
  }

  @Override
  public SecretKey readMaterial(String name, KeyVersionInfo version) {
    return waitFor(() -> delegate.readMaterial(name, version));
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    return waitFor(() -> delegate.createKey(name, first, policy));
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    return waitFor(() -> delegate.addVersion(name, expectedCurrentVersion, next));
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    return waitFor(() -> delegate.updatePolicy(name, policy));
  }

  @Override
  public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    return waitFor(() -> delegate.updateLifecycle(expected, next));
  }

  @Override
  public KeyMetadata setExportable(String name) {
    return waitFor(() -> delegate.setExportable(name));
  }

  @Override
  public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    return waitFor(() -> delegate.restoreKey(key, live));
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }

  private static <T> T waitFor(Supplier<T> call) {
    try {
      return call.get();
    } finally {
      SubjectClock.waited();
    }
  }
}
