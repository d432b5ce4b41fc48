package io.cipherd.server.api;

import com.google.protobuf.Message;
import io.cipherd.server.errors.InvalidArgumentException;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers a request whose bytes are not a valid message (truncated, wrong wire types, invalid UTF-8
 * in a string) with INVALID_ARGUMENT naming the message type.
 *
 * <p>grpc-java turns any exception from a request marshaller into UNKNOWN "Application error
 * processing RPC" and logs a stack trace, so a client sending garbage would get a vague status and
 * could flood the log. Instead, the wrapped marshaller never throws: on a parse failure it returns
 * a fresh copy of the default message and remembers that very instance, and the interceptor, which
 * sees the message next on the same thread, closes the call instead of passing it on.
 */
public final class MalformedRequests {
  /** The instance returned for the last unparseable message on this thread, with why it failed. */
  private static final ThreadLocal<Failure> LAST_FAILURE = new ThreadLocal<>();

  private record Failure(Object placeholder, String messageType, String problem) {}

  private MalformedRequests() {}

  /** {@code service} with every method's requests parsed leniently and malformed ones refused. */
  public static ServerServiceDefinition guard(ServerServiceDefinition service) {
    ServiceDescriptor original = service.getServiceDescriptor();
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(original.getName())
            .setSchemaDescriptor(original.getSchemaDescriptor());
    List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
    for (ServerMethodDefinition<?, ?> method : service.getMethods()) {
      ServerMethodDefinition<?, ?> lenient = lenient(method);
      descriptor.addMethod(lenient.getMethodDescriptor());
      methods.add(lenient);
    }
    ServerServiceDefinition.Builder guarded = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(guarded::addMethod);
    return ServerInterceptors.intercept(guarded.build(), new RefuseMalformed());
  }

  private static <ReqT, RespT> ServerMethodDefinition<ReqT, RespT> lenient(
      ServerMethodDefinition<ReqT, RespT> method) {
    MethodDescriptor<ReqT, RespT> descriptor = method.getMethodDescriptor();
    if (!(descriptor.getRequestMarshaller()
        instanceof MethodDescriptor.PrototypeMarshaller<ReqT> strict)) {
      return method;
    }
    return ServerMethodDefinition.create(
        descriptor.toBuilder().setRequestMarshaller(new LenientMarshaller<>(strict)).build(),
        method.getServerCallHandler());
  }

  private static final class LenientMarshaller<T>
      implements MethodDescriptor.PrototypeMarshaller<T> {
    private final MethodDescriptor.PrototypeMarshaller<T> strict;

    LenientMarshaller(MethodDescriptor.PrototypeMarshaller<T> strict) {
      this.strict = strict;
    }

    @Override
    public InputStream stream(T value) {
      return strict.stream(value);
    }

    @Override
    @SuppressWarnings("unchecked")
    public T parse(InputStream stream) {
      try {
        return strict.parse(stream);
      } catch (RuntimeException e) {
        T prototype = strict.getMessagePrototype();
        // A distinct instance, so a failure never matches any other message by identity.
        T placeholder = (T) ((Message) prototype).toBuilder().build();
        String type = ((Message) prototype).getDescriptorForType().getFullName();
        LAST_FAILURE.set(new Failure(placeholder, type, problem(e)));
        return placeholder;
      }
    }

    @Override
    public T getMessagePrototype() {
      return strict.getMessagePrototype();
    }

    @Override
    public Class<T> getMessageClass() {
      return strict.getMessageClass();
    }

    /** protobuf's own words for what is wrong with the bytes; they never quote the bytes. */
    private static String problem(RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      return cause.getMessage() == null ? "it does not parse" : cause.getMessage();
    }
  }

  private static final class RefuseMalformed implements ServerInterceptor {
    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
        ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
      return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
          next.startCall(call, headers)) {
        private boolean refused;

        @Override
        public void onMessage(ReqT message) {
          Failure failure = LAST_FAILURE.get();
          if (failure != null && failure.placeholder() == message) {
            LAST_FAILURE.remove();
            refused = true;
            StatusMapper.close(
                call,
                new InvalidArgumentException(
                    "request is not a valid "
                        + failure.messageType()
                        + " message: "
                        + failure.problem()));
            return;
          }
          if (!refused) {
            super.onMessage(message);
          }
        }

        @Override
        public void onHalfClose() {
          if (!refused) {
            super.onHalfClose();
          }
        }

        @Override
        public void onReady() {
          if (!refused) {
            super.onReady();
          }
        }
      };
    }
  }
}
