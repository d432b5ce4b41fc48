package io.cipherd.server.audit;

import io.cipherd.server.errors.ErrorKind;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * The call as the service sees it: closing it writes the call's record. With a required trail, a
 * unary call's answer (its messages and its close) is held until the record is durable, and
 * replaced by UNAVAILABLE (AUDIT_UNAVAILABLE) if it cannot be written.
 *
 * <p>A stream under a required trail reads no item that a durable record does not cover: its {@code
 * OPEN} record covers the first {@link #COVERAGE} items, and each {@code PROGRESS} record (written
 * ahead, once half of what is covered is asked for) {@link #COVERAGE} more; the service's requests
 * for messages beyond that wait for the record. From the trail's first failed write (or this
 * stream's own record failing), the stream reads nothing more, answers each item it already read
 * with an AUDIT_UNAVAILABLE item error instead of its result, and then ends UNAVAILABLE
 * (AUDIT_UNAVAILABLE): no item is served after the trail fails, and none read is left unanswered.
 */
final class AuditedServerCall<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {
  /** Items one stream record covers beyond those asked for when it is written. */
  static final int COVERAGE = 64;

  private static final String UNAUDITED =
      "the call's audit record could not be written, and this server serves no call unaudited"
          + " (--audit-required); retry later";

  private final AuditedCall audited;
  private final AuditTrail trail;
  private final AuditInterceptor.Refusals refusals;
  private final AuditInterceptor.ItemRefusals itemRefusals;
  private final boolean holdAnswer;
  private final boolean stream;

  // Guarded by this; made only for a held answer.
  private List<A> heldMessages;
  private boolean refused;

  // A stream's, guarded by this: messages the service asked for, passed on, and covered by a
  // durable record; whether a record is being written; messages read and answered.
  private long heldRequests;
  private long requested;
  private long covered;
  private boolean recording;
  private boolean failed;
  private long received;
  private long sent;

  AuditedServerCall(
      ServerCall<Q, A> call,
      AuditedCall audited,
      AuditTrail trail,
      AuditInterceptor.Refusals refusals,
      AuditInterceptor.ItemRefusals itemRefusals) {
    super(call);
    this.audited = audited;
    this.trail = trail;
    this.refusals = refusals;
    this.itemRefusals = itemRefusals;
    boolean streaming = !call.getMethodDescriptor().getType().clientSendsOneMessage();
    this.holdAnswer = trail.required() && !streaming;
    this.stream = trail.required() && streaming;
    // Until the OPEN record is durable, nothing is covered and no other record is begun.
    this.recording = stream;
  }

  /** After the service started: a stream under a required trail writes its opening record. */
  void started() {
    if (!stream) {
      return;
    }
    record(audited.opened(), COVERAGE);
  }

  /** A message was read, before the service sees it. */
  void received() {
    if (stream) {
      synchronized (this) {
        received++;
      }
    }
  }

  @Override
  public void request(int numMessages) {
    audited.noteIdentity();
    if (!stream) {
      super.request(numMessages);
      return;
    }
    synchronized (this) {
      heldRequests += numMessages;
    }
    pass();
  }

  /** Passes on the requests a durable record covers; writes the next record when it is time. */
  private void pass() {
    int allowed;
    long next = 0;
    synchronized (this) {
      if (refused || failed) {
        return;
      }
      if (covered > 0 && trail.failing()) {
        // An open stream; one not yet open learns from its OPEN record.
        stopLocked();
        return;
      }
      allowed = (int) Math.min(heldRequests, covered - requested);
      heldRequests -= allowed;
      requested += allowed;
      if (!recording && requested + heldRequests > covered - COVERAGE / 2) {
        recording = true;
        next = requested + heldRequests + COVERAGE;
      }
    }
    if (allowed > 0) {
      super.request(allowed);
    }
    if (next > 0) {
      record(audited.progress(next), next);
    }
  }

  /** Writes a stream's record covering {@code upTo} items; on success passes held requests. */
  private void record(CallRecord record, long upTo) {
    trail
        .append(record)
        .whenComplete(
            (done, error) -> {
              synchronized (this) {
                recording = false;
                if (error != null) {
                  stopLocked();
                  return;
                }
                covered = Math.max(covered, upTo);
              }
              pass();
            });
  }

  /** The trail failed: read nothing more, and end once every item read is answered. Holds this. */
  private void stopLocked() {
    failed = true;
    heldRequests = 0;
    if (sent >= received) {
      refuseLocked();
    }
  }

  @Override
  public void sendMessage(A message) {
    audited.sawResponse(message);
    if (holdAnswer) {
      synchronized (this) {
        if (heldMessages == null) {
          heldMessages = new ArrayList<>(1);
        }
        heldMessages.add(message);
      }
      return;
    }
    if (!stream) {
      super.sendMessage(message);
      return;
    }
    synchronized (this) {
      if (refused) {
        return;
      }
      if (!failed && trail.failing()) {
        failed = true;
        heldRequests = 0;
      }
      sent++;
      if (!failed) {
        super.sendMessage(message);
        return;
      }
      @SuppressWarnings("unchecked")
      A refusal = (A) itemRefusals.refuse(message, new AuditUnavailableException(UNAUDITED));
      if (refusal != null) {
        super.sendMessage(refusal);
      }
      if (sent >= received) {
        refuseLocked();
      }
    }
  }

  @Override
  public void close(Status status, Metadata trailers) {
    synchronized (this) {
      if (refused) {
        return;
      }
    }
    if (!audited.finish()) {
      super.close(status, trailers);
      return;
    }
    CallRecord record = audited.closed(status, trailers);
    if (!trail.required()) {
      trail.appendLater(record);
      super.close(status, trailers);
      return;
    }
    trail
        .append(record)
        .whenComplete(
            (done, error) -> {
              if (error != null) {
                refuse();
                return;
              }
              List<A> messages;
              synchronized (this) {
                if (refused) {
                  return;
                }
                messages = heldMessages == null ? List.of() : List.copyOf(heldMessages);
                heldMessages = null;
              }
              try {
                for (A message : messages) {
                  super.sendMessage(message);
                }
                super.close(status, trailers);
              } catch (RuntimeException cancelled) {
                // The client went away meanwhile; there is nobody left to answer.
              }
            });
  }

  /** A cancelled call the service may never close: recorded, nothing left to answer. */
  void cancelled(Status status) {
    if (audited.finish()) {
      CallRecord record = audited.closed(status, (Metadata) null);
      if (trail.required()) {
        trail.append(record);
      } else {
        trail.appendLater(record);
      }
    }
  }

  /** The record could not be written: the call ends UNAVAILABLE, its answer never sent. */
  private synchronized void refuse() {
    refuseLocked();
  }

  private void refuseLocked() {
    if (refused) {
      return;
    }
    refused = true;
    heldMessages = null;
    if (stream && audited.finish()) {
      // The stream's own end, tried once more: the trail may take it again by now.
      trail.appendLater(
          audited.closed(
              Status.UNAVAILABLE.withDescription(UNAUDITED),
              ErrorKind.AUDIT_UNAVAILABLE.reason().name()));
    }
    try {
      refusals.close(delegate(), new AuditUnavailableException(UNAUDITED));
    } catch (RuntimeException alreadyClosed) {
      // The call ended meanwhile.
    }
  }
}
