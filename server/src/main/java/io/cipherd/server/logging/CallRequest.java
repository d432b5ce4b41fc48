package io.cipherd.server.logging;

import com.google.protobuf.ByteString;
import io.grpc.Context;

/**
 * What a call's access-log line and audit record say of one of its request messages: the key it
 * names, how many items it carries and its first item's context. The API reads each message once
 * into a view that is one of these; the {@link AccessLogInterceptor}, outermost, makes it as the
 * message arrives and keeps it in the call's gRPC Context ({@link #current}), where the audit
 * interceptor and the service read the same view.
 */
public interface CallRequest {
  /** The key name of a request that names none. */
  String NONE = "-";

  /** The key name shown for a name that does not follow the key-name syntax. */
  String INVALID = "<invalid>";

  /** The request message this view reads. */
  Object message();

  /**
   * The key name as the access log shows it: {@code key_name}, the name in a ciphertext's header
   * (never more of the ciphertext), {@code source->target} for a rewrap to another key, or a legacy
   * item's key; {@link #NONE} when it names none, {@link #INVALID} for a name that does not match
   * the key-name syntax, so a hostile name cannot forge or flood log lines.
   */
  String keyName();

  /** Its items: a batch's count, one for any other crypto request, none for others. */
  int items();

  /** Its first item's {@code context}; empty when it has none. */
  ByteString firstContext();

  /**
   * The request the current call received last, or null outside a call the {@link
   * AccessLogInterceptor} sees or before its first message.
   */
  static CallRequest current() {
    Received received = Received.KEY.get();
    return received == null ? null : received.last;
  }

  /** The call's last request, kept in its Context by the access-log interceptor. */
  final class Received {
    static final Context.Key<Received> KEY = Context.key("cipherd-call-request");

    // Set by the call's serialized listener callbacks, read by later ones and on the pool.
    volatile CallRequest last;
  }
}
