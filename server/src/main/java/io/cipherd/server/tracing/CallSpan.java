package io.cipherd.server.tracing;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.errors.StatusReason;
import io.cipherd.server.logging.CallRequest;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;

/**
 * The server span of one traced call and what cipherd adds to it: the key the request named, the
 * key version and mode the call used, its items, the error reason it failed with, and whether its
 * keys came from the key cache or the key store. Put in the call's gRPC Context ({@link #current})
 * when the call is found traced ({@link SampledCalls}), so work moved to the blocking pool still
 * finds it, and bound to the span once grpc-java's module has started it ({@link
 * CallSpanInterceptor}). Never a plaintext, ciphertext or key byte: the key is the name the access
 * log shows, which never holds more of a ciphertext than its header's key name.
 */
final class CallSpan {
  static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
  static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
  static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
  static final AttributeKey<String> KEY = AttributeKey.stringKey("cipherd.key");
  static final AttributeKey<Long> KEY_VERSION = AttributeKey.longKey("cipherd.key.version");
  static final AttributeKey<String> KEY_MODE = AttributeKey.stringKey("cipherd.key.mode");
  static final AttributeKey<Long> ITEMS = AttributeKey.longKey("cipherd.items");
  static final AttributeKey<String> ERROR_REASON = AttributeKey.stringKey("cipherd.error.reason");
  static final AttributeKey<String> KEY_CACHE = AttributeKey.stringKey("cipherd.key_cache");

  static final String HIT = "hit";
  static final String MISS = "miss";

  private static final Context.Key<CallSpan> KEY_IN_CONTEXT = Context.key("cipherd-call-span");

  // Bound once, as the call starts, before any of its callbacks or the blocking pool's work.
  private String service;
  private String method;
  private volatile Span span;

  // Noted by the call's serialized callbacks and by the blocking pool, put on the span as it ends.
  private volatile String keyName;
  private volatile long items;
  private volatile KeyVersionRef version;
  private volatile boolean readStore;
  private volatile String errorReason;
  private boolean written;

  /** A traced call's, its span bound later ({@link #bind}). */
  CallSpan() {}

  /** The traced call served on this thread now; null outside one. */
  static CallSpan current() {
    return KEY_IN_CONTEXT.get();
  }

  /** {@code context} with this call in it. */
  Context in(Context context) {
    return context.withValue(KEY_IN_CONTEXT, this);
  }

  /** Binds the call's server span, which cipherd's attributes then go to, and names its method. */
  void bind(Span span, MethodDescriptor<?, ?> called) {
    service = called.getServiceName();
    method = called.getBareMethodName();
    this.span = span;
  }

  /** The call's server span; null until bound (a traced call cipherd adds nothing to). */
  Span span() {
    return span;
  }

  /** Notes a request message of the call: its items; the first one's key. */
  void sawRequest(CallRequest request) {
    items += request.items();
    if (keyName == null && !CallRequest.NONE.equals(request.keyName())) {
      keyName = request.keyName();
    }
  }

  /** Notes the key version an item used; the span shows the first. */
  void usedVersion(KeyVersionRef used) {
    if (version != null) {
      return;
    }
    synchronized (this) {
      if (version == null) {
        version = used;
      }
    }
  }

  /** Notes that the call read the key store: a key-cache miss. */
  void readStore() {
    readStore = true;
  }

  /** Notes the error reason the call closes with, if it fails. */
  void closing(Status status, Metadata trailers) {
    if (!status.isOk()) {
      errorReason = StatusReason.of(status, trailers);
    }
  }

  /**
   * Puts what the call did on its span, as its stream ends (closed, cancelled or lost), just before
   * grpc-java's module ends the span: all of cipherd's attributes at once, under one lock, and a
   * call that never closes (a client's cancel) still gets them. (Written together, their map's
   * entries also lie together for the export, which reads them from memory gone cold; that saved
   * nothing measurable, docs/tracing.md.)
   */
  synchronized void ended() {
    Span span = this.span;
    if (written || span == null) {
      return;
    }
    written = true;
    span.setAttribute(RPC_SYSTEM, "grpc");
    span.setAttribute(RPC_SERVICE, service);
    span.setAttribute(RPC_METHOD, method);
    String key = keyName;
    if (key != null) {
      span.setAttribute(KEY, key);
    }
    KeyVersionRef used = version;
    if (used != null) {
      span.setAttribute(KEY_VERSION, (long) used.version());
      span.setAttribute(KEY_MODE, used.type().typeName());
    }
    span.setAttribute(ITEMS, items);
    if (readStore) {
      span.setAttribute(KEY_CACHE, MISS);
    } else if (used != null) {
      span.setAttribute(KEY_CACHE, HIT);
    }
    String reason = errorReason;
    if (reason != null) {
      span.setAttribute(ERROR_REASON, reason);
    }
  }
}
