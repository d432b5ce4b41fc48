package io.cipherd.server.api;

import io.cipherd.server.engine.AuthorizedKeyAdmin;
import io.cipherd.server.engine.CryptoEngine;
import io.grpc.ServerBuilder;
import java.util.concurrent.Executor;

/**
 * cipherd's two gRPC services over their engines, sharing one dispatcher: calls that need only
 * cached keys run on the transport thread, the rest on {@code blocking}.
 */
public final class CipherdApi {
  private final CryptoServiceImpl crypto;
  private final KeyAdminServiceImpl admin;

  /**
   * {@code blocking} must carry the call's gRPC Context (caller identity, deadline) and request id
   * to its threads, as {@code logging.CallContextExecutor.propagating} does; {@code streams} counts
   * and times the item streams, and is the caller's to close.
   */
  public CipherdApi(
      CryptoEngine engine,
      AuthorizedKeyAdmin keys,
      Executor blocking,
      RequestLimits limits,
      ItemStreams streams) {
    CallDispatcher dispatcher = new CallDispatcher(blocking);
    this.crypto = new CryptoServiceImpl(engine, dispatcher, limits, streams);
    this.admin = new KeyAdminServiceImpl(keys, dispatcher);
  }

  /** Adds both services, each refusing malformed request bytes with INVALID_ARGUMENT. */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    return builder
        .addService(MalformedRequests.guard(crypto.bindService()))
        .addService(MalformedRequests.guard(admin.bindService()));
  }
}
