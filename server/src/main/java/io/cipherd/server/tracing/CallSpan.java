package io.cipherd.server.tracing;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.errors.StatusReason;
import io.cipherd.server.logging.CallRequest;
import io.grpc.Context;
import io.grpc.Metadata;
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
  private volatile Span span;

  // Written by the call's serialized callbacks and by the blocking pool, read when it closes.
  private volatile boolean sawRequest;
  private volatile long items;
  private volatile boolean usedVersion;
  private volatile boolean readStore;

  private CallSpan() {}

  /** The traced call served on this thread now; null outside one. */
  static CallSpan current() {
    return KEY_IN_CONTEXT.get();
  }

  /** {@code context} marked as a traced call's, its span bound later ({@link #bind}). */
  static Context traced(Context context) {
    return context.withValue(KEY_IN_CONTEXT, new CallSpan());
  }

  /** Binds the call's server span, which cipherd's attributes then go to. */
  void bind(Span span) {
    this.span = span;
  }

  /** The call's server span; null until bound (a traced call cipherd adds nothing to). */
  Span span() {
    return span;
  }

  /** Notes a request message of the call: its items; the first one's key. */
  void sawRequest(CallRequest request) {
    items += request.items();
    if (sawRequest) {
      return;
    }
    sawRequest = true;
    if (!CallRequest.NONE.equals(request.keyName())) {
      span.setAttribute(KEY, request.keyName());
    }
  }

  /** Notes the key version an item used; the span shows the first. */
  void usedVersion(KeyVersionRef version) {
    Span span = this.span;
    if (usedVersion || span == null) {
      return;
    }
    synchronized (this) {
      if (usedVersion) {
        return;
      }
      usedVersion = true;
    }
    span.setAttribute(KEY_VERSION, (long) version.version());
    span.setAttribute(KEY_MODE, version.type().typeName());
  }

  /** Notes that the call read the key store: a key-cache miss. */
  void readStore() {
    readStore = true;
  }

  /** Adds what the call did, as it closes with {@code status}. */
  void closed(Status status, Metadata trailers) {
    span.setAttribute(ITEMS, items);
    if (readStore) {
      span.setAttribute(KEY_CACHE, MISS);
    } else if (usedVersion) {
      span.setAttribute(KEY_CACHE, HIT);
    }
    if (!status.isOk()) {
      span.setAttribute(ERROR_REASON, StatusReason.of(status, trailers));
    }
  }
}
