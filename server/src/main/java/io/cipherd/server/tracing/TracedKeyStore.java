package io.cipherd.server.tracing;

import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.crypto.SecretKey;

/**
 * A {@link KeyStore} that, inside a traced call, makes each store call a child span of the call's
 * span ({@code keystore.read_key}, {@code keystore.read_material}, …) naming the key and version,
 * and marks the call as a key-cache miss. Store calls outside a traced call (the refresher,
 * start-up tasks, unsampled calls) go straight through. The span carries names and numbers only,
 * never the material read.
 */
final class TracedKeyStore implements KeyStore {
  static final AttributeKey<String> STORE = AttributeKey.stringKey("cipherd.keystore");
  static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey("cipherd.keystore.operation");

  private final KeyStore delegate;
  private final Tracer tracer;
  private final String kind;

  /** {@code kind}: which store this is, as spans name it ({@code vault}, {@code embedded}). */
  TracedKeyStore(KeyStore delegate, Tracer tracer, String kind) {
    this.delegate = delegate;
    this.tracer = tracer;
    this.kind = kind;
  }

  @Override
  public List<String> listKeyNames() {
    return traced("list_key_names", null, 0, delegate::listKeyNames);
  }

  @Override
  public Optional<KeyMetadata> readKey(String name) {
    return traced("read_key", name, 0, () -> delegate.readKey(name));
  }

  @Override
  public SecretKey readMaterial(String name, KeyVersionInfo version) {
    return traced(
        "read_material", name, version.version(), () -> delegate.readMaterial(name, version));
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    return traced("create_key", name, 0, () -> delegate.createKey(name, first, policy));
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    return traced(
        "add_version", name, 0, () -> delegate.addVersion(name, expectedCurrentVersion, next));
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    return traced("update_policy", name, 0, () -> delegate.updatePolicy(name, policy));
  }

  @Override
  public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    return traced(
        "update_lifecycle", expected.name(), 0, () -> delegate.updateLifecycle(expected, next));
  }

  @Override
  public KeyMetadata setExportable(String name) {
    return traced("set_exportable", name, 0, () -> delegate.setExportable(name));
  }

  @Override
  public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    return traced("restore_key", key.name(), 0, () -> delegate.restoreKey(key, live));
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }

  private <T> T traced(String operation, String key, int version, Supplier<T> call) {
    CallSpan parent = CallSpan.current();
    Span callSpan = parent != null ? parent.span() : null;
    if (callSpan == null) {
      return call.get();
    }
    parent.readStore();
    Span span =
        tracer
            .spanBuilder("keystore." + operation)
            .setSpanKind(SpanKind.CLIENT)
            .setParent(Context.root().with(callSpan))
            .setAttribute(STORE, kind)
            .setAttribute(OPERATION, operation)
            .startSpan();
    if (key != null) {
      span.setAttribute(CallSpan.KEY, key);
    }
    if (version > 0) {
      span.setAttribute(CallSpan.KEY_VERSION, (long) version);
    }
    try (Scope scope = span.makeCurrent()) {
      return call.get();
    } catch (RuntimeException e) {
      // The error's class only: a store's message may quote a path or an address, never a key,
      // but the span needs no more than what failed.
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      throw e;
    } finally {
      span.end();
    }
  }
}
