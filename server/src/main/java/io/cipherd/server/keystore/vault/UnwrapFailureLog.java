package io.cipherd.server.keystore.vault;

import io.cipherd.server.keystore.kek.KekUnwrapException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's side of a key version whose stored material did not unwrap: an ERROR line naming
 * the key, the version, the KEK that wrapped it, the store's KEK and why, at most once a minute per
 * key version, since each call on the version fails the same way until an operator acts (the key
 * cache keeps no failure). The caller is told only that the material could not be unwrapped.
 */
final class UnwrapFailureLog {
  static final Duration EVERY = Duration.ofMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(VaultKeyStore.class);

  private final Clock clock;

  /** When each key version's failure was last logged; bounded by the versions in the store. */
  private final Map<String, Instant> lastLogged = new ConcurrentHashMap<>();

  UnwrapFailureLog(Clock clock) {
    this.clock = clock;
  }

  /** Logs that key {@code name} version {@code version}, wrapped by {@code wrappedBy}, failed. */
  void report(String name, int version, String wrappedBy, KekUnwrapException e) {
    Instant now = clock.instant();
    String at = name + "\u0000" + version;
    Instant last = lastLogged.get(at);
    if (last != null && now.isBefore(last.plus(EVERY))) {
      return;
    }
    lastLogged.put(at, now);
    LOG.error(
        "key '{}' version {}: the stored material (wrapped by {}) could not be unwrapped, and every"
            + " call on this version fails until an operator acts: {} (check --kek and"
            + " --kek-also-unwrap, the KEK's grants, and whether the stored blob was changed;"
            + " logged at most once a minute per version)",
        name,
        version,
        wrappedBy,
        e.getMessage());
  }
}
