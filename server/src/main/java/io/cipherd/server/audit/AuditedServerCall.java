package io.cipherd.server.audit;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * The call as the service sees it: closing it writes the call's record. With a required trail, a
 * unary call's answer (its messages and its close) is held until the record is durable, and
 * replaced by UNAVAILABLE (AUDIT_UNAVAILABLE) if it cannot be written; a stream's requests for
 * messages are held until its {@code OPEN} record is durable, so no item is read, let alone served,
 * before the stream is on record.
 */
final class AuditedServerCall<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {
  private final AuditedCall audited;
  private final AuditTrail trail;
  private final AuditInterceptor.Refusals refusals;
  private final boolean holdAnswer;
  private final boolean holdRequests;

  // Guarded by this.
  private final List<A> heldMessages = new ArrayList<>(1);
  private int heldRequests;
  private boolean opened;
  private boolean refused;

  AuditedServerCall(
      ServerCall<Q, A> call,
      AuditedCall audited,
      AuditTrail trail,
      AuditInterceptor.Refusals refusals) {
    super(call);
    this.audited = audited;
    this.trail = trail;
    this.refusals = refusals;
    boolean stream = !call.getMethodDescriptor().getType().clientSendsOneMessage();
    this.holdAnswer = trail.required() && !stream;
    this.holdRequests = trail.required() && stream;
    this.opened = !holdRequests;
  }

  /** After the service started: a stream under a required trail writes its opening record. */
  void started() {
    if (!holdRequests) {
      return;
    }
    trail
        .append(audited.opened())
        .whenComplete(
            (done, error) -> {
              int requests;
              synchronized (this) {
                if (error != null) {
                  refused = true;
                } else {
                  opened = true;
                }
                requests = heldRequests;
                heldRequests = 0;
              }
              if (error != null) {
                refuse();
              } else if (requests > 0) {
                super.request(requests);
              }
            });
  }

  @Override
  public void request(int numMessages) {
    audited.noteIdentity();
    synchronized (this) {
      if (refused) {
        return;
      }
      if (!opened) {
        heldRequests += numMessages;
        return;
      }
    }
    super.request(numMessages);
  }

  @Override
  public void sendMessage(A message) {
    if (holdAnswer) {
      synchronized (this) {
        heldMessages.add(message);
      }
      return;
    }
    super.sendMessage(message);
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
                messages = List.copyOf(heldMessages);
                heldMessages.clear();
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
      CallRecord record = audited.closed(status, null);
      if (trail.required()) {
        trail.append(record);
      } else {
        trail.appendLater(record);
      }
    }
  }

  /** The record could not be written: the call ends UNAVAILABLE, its answer never sent. */
  private void refuse() {
    synchronized (this) {
      refused = true;
      heldMessages.clear();
    }
    try {
      refusals.close(
          delegate(),
          new AuditUnavailableException(
              "the call's audit record could not be written, and this server serves no call"
                  + " unaudited (--audit-required); retry later"));
    } catch (RuntimeException alreadyClosed) {
      // The call ended meanwhile.
    }
  }
}
