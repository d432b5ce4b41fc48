package io.cipherd.server.audit;

import com.google.protobuf.ByteString;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.errors.StatusReason;
import io.cipherd.server.logging.CallRequest;
import io.cipherd.server.security.CallerIdentity;
import io.cipherd.server.security.CertificateIdentity;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLSession;

/**
 * One audited call as it goes: what its requests named (key, items, the first item's context,
 * hashed at once), the {@link ItemTally} the engine counts its items into, and the record it ends
 * with. The caller's identity is read when the call closes, in the context where the identity
 * interceptor (which runs inside the audit) put it.
 */
final class AuditedCall {
  /** The record's key for a name that does not follow the key-name syntax. */
  static final String INVALID_NAME = "<invalid>";

  static final String ANONYMOUS = "-";

  /** The status of a stream's record written before its first item is served. */
  static final String OPEN = "OPEN";

  /**
   * The status of a stream's record that lets it read more items: its {@code items} is how many the
   * stream may have read once the record is durable (see {@link AuditedServerCall}).
   */
  static final String PROGRESS = "PROGRESS";

  final ItemTally tally = new ItemTally();
  private final AuditTrail trail;
  private final ServerCall<?, ?> call;
  private final String requestId;
  private final AtomicBoolean finished = new AtomicBoolean();

  // Written by the call's serialized listener callbacks, read when the record is made.
  private volatile boolean sawRequest;
  private volatile String keyName;
  private volatile String contextHash;
  private volatile long items;
  private volatile String identity;
  private volatile AuditedInventories inventories = AuditedInventories.NONE;
  private volatile boolean custodyCall;
  private volatile AuditedCustody custody = AuditedCustody.NONE;
  private final String clientRequestId;
  private final String traceId;

  /**
   * @param requestId the id the server gave the call
   * @param clientRequestId the {@code x-request-id} the caller sent, or null
   * @param traceId the trace id of the call's server span when it is traced, or null
   */
  AuditedCall(
      AuditTrail trail,
      ServerCall<?, ?> call,
      String requestId,
      String clientRequestId,
      String traceId) {
    this.trail = trail;
    this.call = call;
    this.requestId = requestId == null ? "-" : requestId;
    this.clientRequestId = clientRequestId;
    this.traceId = traceId;
  }

  /**
   * Notes {@code request}, the view of a message the call received (its items; the first's key).
   */
  void sawRequest(CallRequest request) {
    items += request.items();
    if (sawRequest) {
      return;
    }
    sawRequest = true;
    String name = request.keyName();
    keyName = CallRequest.NONE.equals(name) ? null : name;
    inventories = AuditedInventories.of(request.message());
    if (AuditedCustody.isCustody(request.message())) {
      custody = AuditedCustody.asked(request.message());
      custodyCall = true;
    }
    ByteString context = request.firstContext();
    if (!context.isEmpty()) {
      byte[] bytes = context.toByteArray();
      contextHash = trail.key().hashContext(bytes);
      Arrays.fill(bytes, (byte) 0);
    }
  }

  /**
   * Notes {@code response}, a message the call answered with: a custody call's answer says what it
   * did (the job made, the versions written). Any other call's answers are not looked at.
   */
  void sawResponse(Object response) {
    if (custodyCall) {
      custody = custody.answered(response);
    }
  }

  /**
   * Notes the caller's identity from the current context: called from the service's side of the
   * call (inside the identity interceptor), so a call cancelled later still names its caller.
   */
  void noteIdentity() {
    if (identity == null) {
      identity = CallerIdentity.current();
    }
  }

  /** True the first time only: a call has one final record, whether closed or cancelled. */
  boolean finish() {
    return finished.compareAndSet(false, true);
  }

  /** The record a stream writes before serving its first item. */
  CallRecord opened() {
    return record(OPEN, null, List.of(), null, 0);
  }

  /** The record that lets a stream read up to {@code covered} items in all. */
  CallRecord progress(long covered) {
    return record(PROGRESS, null, List.of(), null, covered);
  }

  /** The call's final record, for {@code status} (its reason read from {@code trailers}). */
  CallRecord closed(Status status, Metadata trailers) {
    return closed(status, status.isOk() ? null : StatusReason.of(status, trailers));
  }

  /** The call's final record, for {@code status} with {@code reason} (null when OK). */
  CallRecord closed(Status status, String reason) {
    long total = items;
    long counted = tally.items();
    if (counted < total) {
      // Items no key version reported (an Inspect; a batch refused as a whole; a stream's items
      // cancelled before they ran): accounted under version 0 with the call's outcome.
      tally.add(
          requestedKey(),
          ItemTally.NO_VERSION,
          status.isOk() ? AuditObserver.OK : reason,
          total - counted);
    }
    CallRecord record =
        record(status.getCode().name(), reason, tally.snapshot(), tally.folded(), total);
    if (refusedCaller(reason) && !record.inventories().isEmpty()) {
      // A caller the access policy refused gets no more of the trail than any refused call: the
      // inventories it sent are not recorded, so they cannot bloat the trail. Its custody part is
      // kept: what it asked (a job id, a recipient's fingerprint), a few bounded fields, and never
      // more, as a refused call has no answer.
      return record.withoutInventories();
    }
    return record;
  }

  private static boolean refusedCaller(String reason) {
    return ErrorKind.ACCESS_DENIED.reason().name().equals(reason)
        || ErrorKind.UNAUTHENTICATED.reason().name().equals(reason);
  }

  /** The key the request named, without the version or rewrap target the record's key shows. */
  private String requestedKey() {
    if (keyName == null) {
      return CallRequest.NONE;
    }
    String name = keyName;
    int arrow = name.indexOf("->");
    if (arrow > 0) {
      name = name.substring(0, arrow);
    }
    int slash = name.indexOf('/');
    return slash > 0 ? name.substring(0, slash) : name;
  }

  private CallRecord record(
      String status,
      String reason,
      List<ItemTally.VersionOutcomes> versions,
      ItemTally.Folded folded,
      long total) {
    String current = CallerIdentity.current();
    String identity = current != null ? current : this.identity;
    String via = "anonymous";
    if (identity != null) {
      SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
      via = session != null && CertificateIdentity.of(session) != null ? "certificate" : "token";
    }
    return CallRecord.builder(trail.now(), requestId)
        .clientRequestId(clientRequestId)
        .traceId(traceId)
        .caller(identity == null ? ANONYMOUS : identity)
        .callerVia(via)
        .peer(CallerIdentity.peer(call))
        .method(call.getMethodDescriptor().getFullMethodName())
        .keyName(keyName)
        .items(total)
        .versions(versions)
        .folded(folded)
        .status(status)
        .reason(reason)
        .contextHash(contextHash)
        .inventories(inventories)
        .custody(custody)
        .build();
  }
}
