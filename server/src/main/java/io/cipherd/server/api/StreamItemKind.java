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
   * The item's response, its result or its error: never throws for a bad item. {@code parsed} is
   * the view of {@code request} that routed it.
   */
  R answer(CryptoEngine engine, Q request, ParsedRequest parsed);
}
