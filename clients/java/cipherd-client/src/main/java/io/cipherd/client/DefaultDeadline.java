package io.cipherd.client;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Gives each unary call without a deadline the client's default one. Streams get none: they last as
 * long as their items do.
 */
final class DefaultDeadline implements ClientInterceptor {
  private final Duration deadline;

  DefaultDeadline(Duration deadline) {
    this.deadline = deadline;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    if (method.getType() == MethodDescriptor.MethodType.UNARY && options.getDeadline() == null) {
      options = options.withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS);
    }
    return next.newCall(method, options);
  }
}
