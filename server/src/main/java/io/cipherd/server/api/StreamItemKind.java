package io.cipherd.server.api;

import io.cipherd.server.engine.CryptoEngine;

/**
 * What one kind of item stream (EncryptStream, DecryptStream, ReEncryptStream) does with an item;
 * {@link StreamItems} holds the three.
 */
interface StreamItemKind<Q, R> {
  /** The stream's method name, as gRPC's call metrics name it. */
  String method();

  /**
   * Whether {@code request} needs only cached keys, so it may be answered on the transport thread.
   */
  boolean fromMemory(CryptoEngine engine, Q request);

  /** The item's response, its result or its error: never throws for a bad item. */
  R answer(CryptoEngine engine, Q request);
}
