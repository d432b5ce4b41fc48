package io.cipherd.server.crypto;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;

/** Where a {@link ModeFamily} gets a pooled cipher for one operation and gives it back. */
public interface CipherSource {
  /**
   * A cipher of {@code mode}, for this thread's exclusive use until released, to be initialised
   * with {@code key}. A source may prefer a cipher last used with that same key: the JCE then keeps
   * its expanded key schedule instead of rebuilding it (~600 B and a good part of a microsecond).
   */
  Cipher borrow(CipherMode mode, SecretKey key);

  /**
   * Gives back a cipher that finished its operation normally, last initialised with {@code key}.
   */
  void release(CipherMode mode, SecretKey key, Cipher cipher);

  /** Drops a cipher that threw, so no half-initialised state is reused. */
  void invalidate(CipherMode mode, Cipher cipher);
}
