package io.cipherd.server.engine;

import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.subjectkeys.SubjectKeyWrapping;
import io.cipherd.server.subjectkeys.SubjectKeys;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectRewrap;
import io.cipherd.server.subjects.SubjectStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves live subject keys to their key's current version after a rotation: each page of rows
 * wrapped under an older version is unwrapped and wrapped again by the engine, and written back
 * with check-and-set (a row another replica's sweep moved, or that was erased meanwhile, is left
 * alone). Once a key's old versions wrap no subject key, they can be retired and destroyed, and a
 * backup of the subject table taken before that unwraps nothing after.
 */
public final class SubjectSweep {
  private static final Logger LOG = LoggerFactory.getLogger(SubjectSweep.class);
  static final int PAGE = 500;

  private final SubjectKeys subjects;
  private final KeyCache keys;
  private final SubjectKeyWrapping wrapping;

  /** Sweeps with {@code engine}'s own key-bound encryption, which needs no caller's grant. */
  public SubjectSweep(CryptoEngine engine, SubjectKeys subjects, KeyCache keys) {
    this.subjects = subjects;
    this.keys = keys;
    this.wrapping = engine.envelopes.wrapping;
  }

  /** Rewraps every live subject key of {@code keyName} below its current version; how many. */
  public int sweep(String keyName) {
    int current = keys.describe(keyName).currentVersion();
    SubjectStore store = subjects.store();
    int moved = 0;
    SubjectRef after = null;
    while (true) {
      List<SubjectRecord> page = store.wrappedBelow(keyName, current, after, PAGE);
      if (page.isEmpty()) {
        break;
      }
      List<SubjectRewrap> rewraps = new ArrayList<>(page.size());
      for (SubjectRecord row : page) {
        byte[] key = wrapping.unwrap(row.wrappedKey(), row.ref());
        try {
          SubjectKeyWrapping.Wrapped wrapped = wrapping.wrap(keyName, row.ref(), key);
          rewraps.add(
              new SubjectRewrap(row.ref(), row.wrapVersion(), wrapped.text(), wrapped.version()));
        } finally {
          Arrays.fill(key, (byte) 0);
        }
      }
      moved += store.rewrap(rewraps);
      after = page.get(page.size() - 1).ref();
    }
    if (moved > 0) {
      // Cached rows name the old wrap version.
      subjects.forgetKey(keyName);
      LOG.info("subject sweep rewrapped {} subject keys of '{}' to v{}", moved, keyName, current);
    }
    return moved;
  }

  /** Sweeps each of {@code keyNames}; a key that fails is logged and left for the next run. */
  public int sweepAll(Iterable<String> keyNames) {
    int moved = 0;
    for (String name : keyNames) {
      try {
        moved += sweep(name);
      } catch (RuntimeException e) {
        LOG.warn("subject sweep of '{}' failed: {}", name, e.getMessage());
      }
    }
    return moved;
  }
}
