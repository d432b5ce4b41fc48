package io.cipherd.server.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * The server side of a stream call whose client always reads and never cancels, for driving an
 * {@code ItemStream} without a transport: the answers go to {@code answers}, everything else is a
 * no-op.
 */
final class ReadyCall<T> extends ServerCallStreamObserver<T> {
  private final StreamObserver<? super T> answers;

  ReadyCall(StreamObserver<? super T> answers) {
    this.answers = answers;
  }

  @Override
  public boolean isCancelled() {
    return false;
  }

  @Override
  public void setOnCancelHandler(Runnable handler) {}

  @Override
  public void setCompression(String compression) {}

  @Override
  public void disableAutoRequest() {}

  @Override
  public void disableAutoInboundFlowControl() {}

  @Override
  public boolean isReady() {
    return true;
  }

  @Override
  public void setOnReadyHandler(Runnable handler) {}

  @Override
  public void request(int count) {}

  @Override
  public void setMessageCompression(boolean enable) {}

  @Override
  public void onNext(T value) {
    answers.onNext(value);
  }

  @Override
  public void onError(Throwable t) {
    answers.onError(t);
  }

  @Override
  public void onCompleted() {
    answers.onCompleted();
  }
}
