package io.cipherd.server.crypto;

import java.util.function.Supplier;

/**
 * A stretch of one thread's work, such as one batch call, at whose end the thread's keyed library
 * ciphers forget their key, instead of after each message. Tink's AES-SIV keeps a per-thread cipher
 * keyed with the last message's key ({@link Siv}); re-keying it costs about 3.5 times an AES-SIV
 * message of 100 bytes, so a batch of siv items pays it once rather than per item. Outside a scope
 * (unary calls and stream items, which may move between threads) each message forgets its key
 * itself.
 *
 * <p>Safe only for work that runs wholly on the calling thread and returns: the keys stay in the
 * thread's ciphers until {@link #run} returns or throws, never longer.
 */
public final class ThreadKeyScope {
  private static final ThreadLocal<ThreadKeyScope> CURRENT = new ThreadLocal<>();

  private boolean used;

  private ThreadKeyScope() {}

  /** Runs {@code work} on this thread, then makes the thread's keyed ciphers forget their key. */
  public static <T> T run(Supplier<T> work) {
    if (CURRENT.get() != null) {
      return work.get();
    }
    ThreadKeyScope scope = new ThreadKeyScope();
    CURRENT.set(scope);
    try {
      return work.get();
    } finally {
      CURRENT.remove();
      if (scope.used) {
        Siv.forgetThreadKeys();
      }
    }
  }

  /** Whether this thread's keyed ciphers hold a key that a scope has yet to make them forget. */
  static boolean pending() {
    ThreadKeyScope scope = CURRENT.get();
    return scope != null && scope.used;
  }

  /**
   * Called after each message that keyed a per-thread cipher: forgets the key now, or at the end of
   * this thread's scope.
   */
  static void used() {
    ThreadKeyScope scope = CURRENT.get();
    if (scope == null) {
      Siv.forgetThreadKeys();
    } else {
      scope.used = true;
    }
  }
}
