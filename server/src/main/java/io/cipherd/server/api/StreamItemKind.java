package io.cipherd.server.api;

import io.cipherd.server.engine.CryptoEngine;
import java.util.List;

/**
 * What one kind of item stream does with an item: {@link StreamItems} holds the crypto service's
 * three (EncryptStream, DecryptStream, ReEncryptStream), {@link FormattedStreamItems} the
 * format-preserving service's.
 */
interface StreamItemKind<Q, R> {
  /** The stream's method name, as gRPC's call metrics name it. */
  String method();

  /**
   * The item's response, its result or its error: never throws for a bad item. {@code parsed} is
   * the view of {@code request} that routed it.
   */
  R answer(CryptoEngine engine, Q request, ParsedRequest parsed);

  /**
   * Readies the keys of {@code queued}, items received and not yet answered (the next to answer
   * first), in as few store round trips as a batch takes, so that each then finds its own cached.
   * Only a warm-up: each item is still authorized, checked and answered alone. {@code engine} is
   * the one that answers these items next, one at a time, as a batch's own engine does: it may keep
   * what the round trip settled for them (a store that failed: they fail with its error at once).
   * Nothing by default.
   */
  default void prefetch(CryptoEngine engine, List<Q> queued) {}
}
