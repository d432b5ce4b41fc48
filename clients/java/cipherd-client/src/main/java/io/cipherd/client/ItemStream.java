package io.cipherd.client;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * The results of an item stream (encryptStream, decryptStream, reEncryptStream), in the order the
 * items were sent, one per item. The items are read only as the transport can take them, and
 * answers are asked for only as this iterator is read, so neither side is read far ahead.
 *
 * <p>When the stream breaks (a server restart, a network failure), {@link #next()} or {@link
 * #hasNext()} throws the {@link CipherdException} with {@link CipherdException#lastReference()},
 * the reference of the last result read: give it as resumeAfter to a new call with the same items,
 * and the items up to and including it are skipped. An exception thrown by the items ends the
 * input: the items already sent are still answered, then it is thrown. Close it to cancel the call
 * early.
 */
public final class ItemStream<T> implements Iterator<ItemResult<T>>, AutoCloseable {
  /** How many answers may wait unread: the flow-control window of the call. */
  private static final int WINDOW = 32;

  private static final Object END = new Object();

  private final BlockingQueue<Object> answers = new LinkedBlockingQueue<>();
  private final Feed<?, ?> feed;
  private volatile ClientCallStreamObserver<?> requests;
  private ItemResult<T> buffered;
  private boolean ended;
  private String lastReference;

  private ItemStream(Feed<?, ?> feed, String resumeAfter) {
    this.feed = feed;
    this.lastReference = resumeAfter;
  }

  /**
   * Starts a stream call: {@code call} is the async stub's method, {@code toResult} reads one
   * answer.
   */
  static <I, Q, R, T> ItemStream<T> start(
      Function<StreamObserver<R>, StreamObserver<Q>> call,
      Iterator<I> items,
      Function<I, Q> toRequest,
      Function<Q, String> referenceOf,
      Function<R, ItemResult<T>> toResult,
      String resumeAfter) {
    if (resumeAfter != null && resumeAfter.isEmpty()) {
      throw new IllegalArgumentException(
          "resumeAfter needs a non-empty reference: give items references to resume a stream");
    }
    Feed<I, Q> feed = new Feed<>(items, toRequest, referenceOf, resumeAfter);
    ItemStream<T> stream = new ItemStream<>(feed, resumeAfter);
    call.apply(
        new ClientResponseObserver<Q, R>() {
          @Override
          public void beforeStart(ClientCallStreamObserver<Q> requestStream) {
            stream.requests = requestStream;
            requestStream.disableAutoRequestWithInitial(WINDOW);
            requestStream.setOnReadyHandler(() -> feed.send(requestStream));
          }

          @Override
          public void onNext(R answer) {
            stream.answers.add(toResult.apply(answer));
          }

          @Override
          public void onError(Throwable failure) {
            stream.answers.add(new Broken(failure));
          }

          @Override
          public void onCompleted() {
            stream.answers.add(END);
          }
        });
    return stream;
  }

  @Override
  public boolean hasNext() {
    if (buffered != null) {
      return true;
    }
    if (ended) {
      return false;
    }
    Object answer;
    try {
      answer = answers.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new CancelledException(
          new ErrorDetails(
              io.grpc.Status.Code.CANCELLED, "", "interrupted", java.util.Map.of(), e));
    }
    if (answer instanceof Broken broken) {
      ended = true;
      CipherdException error = Errors.fromGrpc(broken.failure());
      error.lastReference(lastReference);
      throw error;
    }
    if (answer == END) {
      ended = true;
      feed.finished();
      return false;
    }
    @SuppressWarnings("unchecked")
    ItemResult<T> result = (ItemResult<T>) answer;
    buffered = result;
    requests.request(1);
    return true;
  }

  @Override
  public ItemResult<T> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ItemResult<T> result = buffered;
    buffered = null;
    lastReference = result.reference();
    return result;
  }

  /** The reference of the last result read, or the call's resumeAfter before the first. */
  public Optional<String> lastReference() {
    return Optional.ofNullable(lastReference);
  }

  /** Cancels the call if it has not ended. */
  @Override
  public void close() {
    if (!ended && requests != null) {
      ended = true;
      // under the feed's lock: a ClientCall is not thread-safe, and the feed may be sending
      synchronized (feed) {
        requests.cancel("closed by the caller", null);
      }
    }
  }

  private record Broken(Throwable failure) {}

  /** The caller's items turned into requests as the transport is ready for them. */
  private static final class Feed<I, Q> {
    private final Iterator<I> items;
    private final Function<I, Q> toRequest;
    private final Function<Q, String> referenceOf;
    private final String resumeAfter;
    private boolean resumed;
    private boolean done;
    private volatile RuntimeException failure;

    Feed(
        Iterator<I> items,
        Function<I, Q> toRequest,
        Function<Q, String> referenceOf,
        String resumeAfter) {
      this.items = items;
      this.toRequest = toRequest;
      this.referenceOf = referenceOf;
      this.resumeAfter = resumeAfter;
      this.resumed = resumeAfter == null;
    }

    synchronized void send(ClientCallStreamObserver<Q> requests) {
      try {
        while (!done && requests.isReady()) {
          if (!items.hasNext()) {
            done = true;
            requests.onCompleted();
            return;
          }
          Q request = toRequest.apply(items.next());
          if (resumed) {
            requests.onNext(request);
          } else {
            resumed = referenceOf.apply(request).equals(resumeAfter);
          }
        }
      } catch (RuntimeException e) {
        // handed to the caller after the items already sent are answered
        failure = e;
        done = true;
        requests.onCompleted();
      }
    }

    /** After the last answer: throws what broke the input, or says resumeAfter was never seen. */
    synchronized void finished() {
      if (failure != null) {
        throw failure;
      }
      if (!resumed) {
        throw new IllegalArgumentException(
            "resumeAfter '" + resumeAfter + "' is not the reference of any item");
      }
    }
  }
}
