package io.cipherd.server.crypto;

import javax.crypto.Cipher;

/** Where {@link PayloadCipher} gets a cipher for one operation and gives it back. */
public interface CipherSource {
  /** A cipher of {@code mode}, for this thread's exclusive use until released. */
  Cipher borrow(Mode mode);

  /** Gives back a cipher that finished its operation normally. */
  void release(Mode mode, Cipher cipher);

  /** Drops a cipher that threw, so no half-initialised state is reused. */
  void invalidate(Mode mode, Cipher cipher);
}
