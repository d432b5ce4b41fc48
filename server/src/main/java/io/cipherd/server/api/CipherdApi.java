package io.cipherd.server.api;

import io.cipherd.server.audit.AuditKey;
import io.cipherd.server.audit.ErasureAudit;
import io.cipherd.server.engine.AuthorizedKeyAdmin;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.SubjectAdmin;
import io.cipherd.server.keys.AuditStore;
import io.cipherd.server.logging.CallRequest;
import io.cipherd.server.security.Authorizer;
import io.grpc.ServerBuilder;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * cipherd's gRPC services over their engines, sharing one dispatcher: calls that need only cached
 * keys run on the transport thread, the rest on {@code blocking}.
 */
public final class CipherdApi {
  private final CryptoServiceImpl crypto;
  private final KeyAdminServiceImpl admin;
  private final AuditServiceImpl audit;
  private final SubjectServiceImpl subjects;
  private final FormatPreservingServiceImpl formatted;

  /**
   * {@code blocking} must carry the call's gRPC Context (caller identity, deadline) and request id
   * to its threads, as {@code logging.CallContextExecutor.propagating} does; {@code
   * maxMessageBytes} must be the transport's, which sets the largest plaintext ({@link
   * PlaintextLimit}); {@code streams} counts and times the item streams, and is the caller's to
   * close.
   */
  public CipherdApi(
      CryptoEngine engine,
      AuthorizedKeyAdmin keys,
      Executor blocking,
      RequestLimits limits,
      int maxMessageBytes,
      ItemStreams streams,
      AuditAccess audit,
      SubjectAdmin subjects,
      Supplier<ErasureAudit> erasures) {
    CallDispatcher dispatcher = new CallDispatcher(blocking);
    this.crypto =
        new CryptoServiceImpl(
            engine, dispatcher, limits, new PlaintextLimit(maxMessageBytes), streams);
    this.admin = new KeyAdminServiceImpl(keys, dispatcher);
    this.audit = new AuditServiceImpl(audit, dispatcher);
    this.subjects = new SubjectServiceImpl(subjects, erasures, dispatcher, limits);
    this.formatted = new FormatPreservingServiceImpl(engine, dispatcher, limits, streams);
  }

  /**
   * What the audit service answers with: the audit key (null when the server keeps no trail), who
   * may ask, the clock of its answers, the key store that anchors trails' heads and this server's
   * own trail name (null without a trail).
   */
  public record AuditAccess(
      AuditKey key, Authorizer authorizer, Clock clock, AuditStore store, String trail) {}

  /**
   * Reads a request message once, into the view the services route it by, the access log names its
   * key by and the audit record counts its items by: for the access-log interceptor, which sees
   * each message first.
   */
  public static CallRequest readRequest(Object message) {
    return ParsedRequest.read(message);
  }

  /**
   * Adds the crypto, key-admin, audit, subject and format-preserving services, each refusing
   * malformed request bytes with INVALID_ARGUMENT.
   */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    return builder
        .addService(MalformedRequests.guard(crypto.bindService()))
        .addService(MalformedRequests.guard(admin.bindService()))
        .addService(MalformedRequests.guard(audit.bindService()))
        .addService(MalformedRequests.guard(subjects.bindService()))
        .addService(MalformedRequests.guard(formatted.bindService()));
  }
}
