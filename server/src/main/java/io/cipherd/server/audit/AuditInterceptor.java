package io.cipherd.server.audit;

import io.cipherd.server.logging.CallRequest;
import io.cipherd.server.logging.RequestIds;
import io.cipherd.server.logging.SampledTraceId;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Writes one audit record for every call to a cipherd service (crypto, key admin, audit; not the
 * standard health and reflection services): who called from where, the method, the key, how many
 * items, per key version the items per outcome, the status, and the hash of the caller's context.
 * It puts the call's {@link ItemTally} in the gRPC Context, where {@link AuditObserver} and {@link
 * AuditedAuthorizer} count each item, and runs outside the identity interceptor so refused calls
 * are recorded too (the identity is read from the service's side of the call, see {@link
 * AuditedCall}), and inside the access-log interceptor, whose {@link CallRequest} of each message
 * it reads.
 *
 * <p>Without {@code --audit-required}, records are queued and never delay a call. With it, {@link
 * AuditedServerCall} holds a unary call's answer until its record is durable and answers
 * UNAVAILABLE (AUDIT_UNAVAILABLE) instead if it cannot be written; a stream reads no item that a
 * durable {@code OPEN} or {@code PROGRESS} record does not cover, and serves none after the trail
 * fails.
 */
public final class AuditInterceptor implements ServerInterceptor {
  /** The current call's tally; null outside an audited call. */
  static final Context.Key<ItemTally> TALLY = Context.key("cipherd-audit-tally");

  private static final String AUDITED_PREFIX = "cipherd.";

  /** Closes a call whose record could not be written, with the API's status and error details. */
  @FunctionalInterface
  public interface Refusals {
    void close(ServerCall<?, ?> call, AuditUnavailableException refusal);
  }

  /**
   * Answers a stream item the server will not serve once the trail has failed: the item's response
   * with its outcome replaced by the refusal, its reference kept; null for a message with none.
   */
  @FunctionalInterface
  public interface ItemRefusals {
    Object refuse(Object response, AuditUnavailableException refusal);
  }

  private final AuditTrail trail;
  private final Refusals refusals;
  private final ItemRefusals itemRefusals;

  public AuditInterceptor(AuditTrail trail, Refusals refusals, ItemRefusals itemRefusals) {
    this.trail = trail;
    this.refusals = refusals;
    this.itemRefusals = itemRefusals;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    String service = call.getMethodDescriptor().getServiceName();
    if (service == null || !service.startsWith(AUDITED_PREFIX)) {
      return next.startCall(call, headers);
    }
    AuditedCall audited =
        new AuditedCall(
            trail,
            call,
            RequestIds.current(),
            RequestIds.ofClient(headers),
            SampledTraceId.current());
    AuditedServerCall<Q, A> recorded =
        new AuditedServerCall<>(call, audited, trail, refusals, itemRefusals);
    ServerCall.Listener<Q> listener =
        Contexts.interceptCall(
            Context.current().withValue(TALLY, audited.tally), recorded, headers, next);
    recorded.started();
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        // The access-log interceptor, outside this one, has read the message.
        audited.sawRequest(CallRequest.current());
        recorded.received();
        super.onMessage(message);
      }

      @Override
      public void onCancel() {
        try {
          super.onCancel();
        } finally {
          // The service may never close a cancelled call; it still gets its record.
          recorded.cancelled(Status.CANCELLED);
        }
      }
    };
  }
}
