package io.cipherd.server.engine;

import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.subjectkeys.SubjectClock;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;

/**
 * The key store as a batch sees it: each call, answered or failed, moves the time of the batch
 * under way on the calling thread to when it returned ({@link SubjectClock#waitFor}). A batch that
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
    return SubjectClock.waitFor(delegate::listKeyNames);
  }

  @Override
  public Optional<KeyMetadata> readKey(String name) {
    return SubjectClock.waitFor(() -> delegate.readKey(name));
  }

  @Override
  public SecretKey readMaterial(String name, KeyVersionInfo version) {
    return SubjectClock.waitFor(() -> delegate.readMaterial(name, version));
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    return SubjectClock.waitFor(() -> delegate.createKey(name, first, policy));
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    return SubjectClock.waitFor(() -> delegate.addVersion(name, expectedCurrentVersion, next));
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    return SubjectClock.waitFor(() -> delegate.updatePolicy(name, policy));
  }

  @Override
  public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    return SubjectClock.waitFor(() -> delegate.updateLifecycle(expected, next));
  }

  @Override
  public KeyMetadata setExportable(String name) {
    return SubjectClock.waitFor(() -> delegate.setExportable(name));
  }

  @Override
  public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    return SubjectClock.waitFor(() -> delegate.restoreKey(key, live));
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
