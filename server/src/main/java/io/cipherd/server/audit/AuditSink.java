package io.cipherd.server.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The off-host copy of the audit trail: every group of lines the writer puts in the file, the same
 * bytes in the same order, sent over a stream socket ({@link AuditSinkAddress}) by a thread of its
 * own. Groups wait in a bounded buffer until written; a broken connection is opened again and the
 * groups not yet written are sent again, from the first line the old connection did not take whole,
 * so the receiver's copy stays a chain.
 *
 * <p>A group counts as delivered once it is written and flushed to the socket. With {@code
 * --audit-required} the writer waits for that ({@link #awaitDelivered}), so a sink that stops
 * answering fails calls like a file that cannot grow; without it, nothing waits, failures are
 * counted, and when the buffer is full the oldest waiting groups are dropped: {@link #takeLost}
 * tells the writer, which records the loss in the file.
 */
public final class AuditSink implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AuditSink.class);
  private static final long MAX_BACKOFF_MILLIS = 1000;

  /** What the sink reports, for metrics. */
  public interface Listener {
    Listener NONE = new Listener() {};

    /** {@code lines} reached the receiver (written and flushed). */
    default void sent(long lines) {}

    /** A connection or a write failed; what it carried is sent again. */
    default void failed() {}

    /** {@code lines} were dropped from a full buffer and never sent. */
    default void lost(long lines) {}
  }

  /** One group of whole lines; {@code delivered} or {@code dropped} once settled. */
  static final class Group {
    final byte[] bytes;
    final long lines;
    boolean delivered;
    boolean dropped;

    private Group(byte[] bytes) {
      this.bytes = bytes;
      long count = 0;
      for (byte b : bytes) {
        if (b == '\n') {
          count++;
        }
      }
      this.lines = count;
    }
  }

  private final AuditSinkAddress address;
  private final long bufferBytes;
  private final Duration timeout;
  private final Listener listener;
  private final Thread sender;

  // Guarded by this.
  private final ArrayDeque<Group> waiting = new ArrayDeque<>();
  private long waitingBytes;

  /** Bytes of the first waiting group already written whole-line, on the current connection. */
  private int headWritten;

  private boolean failing;
  private long lost;
  private boolean closed;

  /** After close, until when the sender keeps trying to send what is waiting. */
  private long closeDeadline;

  private SocketChannel channel;

  private AuditSink(
      AuditSinkAddress address, long bufferBytes, Duration timeout, Listener listener) {
    this.address = address;
    this.bufferBytes = bufferBytes;
    this.timeout = timeout;
    this.listener = listener;
    this.sender = Thread.ofPlatform().name("cipherd-audit-sink").daemon().unstarted(this::run);
  }

  /** Starts sending to {@code address}, keeping at most {@code bufferBytes} unsent. */
  public static AuditSink start(
      AuditSinkAddress address, long bufferBytes, Duration timeout, Listener listener) {
    AuditSink sink = new AuditSink(address, bufferBytes, timeout, listener);
    sink.sender.start();
    return sink;
  }

  /** Queues {@code lines} (whole lines) after every group queued before. */
  synchronized Group send(byte[] lines) {
    Group group = new Group(lines);
    waiting.addLast(group);
    waitingBytes += lines.length;
    // Full: drop the oldest groups not being sent; the one at the head may be half written.
    Iterator<Group> oldest = waiting.iterator();
    oldest.next();
    while (waitingBytes > bufferBytes && oldest.hasNext()) {
      Group dropped = oldest.next();
      if (dropped == group) {
        break;
      }
      oldest.remove();
      dropped.dropped = true;
      waitingBytes -= dropped.bytes.length;
      lost += dropped.lines;
      listener.lost(dropped.lines);
    }
    notifyAll();
    return group;
  }

  /**
   * Returns once {@code group} (and so every group before it) is delivered; throws if it was
   * dropped, if the sink is failing now, or if it is not delivered within the timeout (then the
   * connection is dropped, so a receiver that stopped reading cannot hold the sender).
   */
  void awaitDelivered(Group group) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (this) {
      while (!group.delivered) {
        if (group.dropped) {
          throw new IOException("the audit sink's buffer overflowed");
        }
        if (failing) {
          throw new IOException("the audit sink " + address + " is not reachable");
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted waiting for the audit sink");
        }
      }
      if (group.delivered) {
        return;
      }
    }
    disconnect();
    throw new IOException("the audit sink " + address + " did not take the records in " + timeout);
  }

  /** Lines dropped since the last call. */
  synchronized long takeLost() {
    long taken = lost;
    lost = 0;
    return taken;
  }

  /**
   * The {@code system} record of the lines dropped since the last one ({@link #takeLost}), so the
   * file says where its copy has a gap; null when none were.
   */
  SystemRecord takeLossRecord(Instant now) {
    long dropped = takeLost();
    if (dropped == 0) {
      return null;
    }
    return new SystemRecord(
        now,
        "AuditSinkLoss",
        "-",
        List.of(),
        dropped
            + " lines before this one were dropped from the audit sink's full buffer"
            + " and never sent to it",
        "-");
  }

  /** Sends what is waiting, for at most the timeout, then stops. */
  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      closed = true;
      closeDeadline = System.nanoTime() + timeout.toNanos();
      notifyAll();
    }
    sender.join(timeout);
    disconnect();
    sender.join(timeout);
  }

  private void run() {
    long backoff = 50;
    while (true) {
      Group head;
      int from;
      synchronized (this) {
        while (waiting.isEmpty() && !closed) {
          waitQuietly(0);
        }
        if (waiting.isEmpty() || (closed && System.nanoTime() - closeDeadline > 0)) {
          break;
        }
        head = waiting.peekFirst();
        from = headWritten;
      }
      try {
        SocketChannel out = connection();
        if (peerClosed(out)) {
          throw new IOException("the receiver closed the connection");
        }
        ByteBuffer bytes = ByteBuffer.wrap(head.bytes, from, head.bytes.length - from);
        while (bytes.hasRemaining()) {
          out.write(bytes);
          synchronized (this) {
            headWritten = afterLastNewline(head.bytes, bytes.position());
          }
        }
        synchronized (this) {
          waiting.removeFirst();
          waitingBytes -= head.bytes.length;
          headWritten = 0;
          head.delivered = true;
          failing = false;
          notifyAll();
        }
        listener.sent(head.lines);
        backoff = 50;
      } catch (IOException e) {
        log.warn("audit sink {}: {}; sending again", address, e.toString());
        listener.failed();
        disconnect();
        synchronized (this) {
          failing = true;
          notifyAll();
          waitQuietly(
              closed
                  ? Math.max(1, Math.min(backoff, (closeDeadline - System.nanoTime()) / 1_000_000))
                  : backoff);
        }
        backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
      }
    }
    disconnect();
  }

  private SocketChannel connection() throws IOException {
    SocketChannel current;
    synchronized (this) {
      current = channel;
    }
    if (current != null) {
      return current;
    }
    SocketChannel opened = address.connect(timeout);
    synchronized (this) {
      channel = opened;
      // A new connection: the receiver has only the whole lines the old one took.
    }
    return opened;
  }

  private void disconnect() {
    SocketChannel current;
    synchronized (this) {
      current = channel;
      channel = null;
    }
    if (current != null) {
      try {
        current.close();
      } catch (IOException ignored) {
        // Closing is all that was left to do.
      }
    }
  }

  /**
   * Whether the receiver has closed its end: a write to such a connection would still succeed once
   * and its lines be lost, so the sender looks first. Anything the receiver sent is discarded.
   */
  private static boolean peerClosed(SocketChannel channel) throws IOException {
    ByteBuffer scratch = ByteBuffer.allocate(512);
    channel.configureBlocking(false);
    try {
      int read;
      do {
        scratch.clear();
        read = channel.read(scratch);
      } while (read > 0);
      return read < 0;
    } finally {
      channel.configureBlocking(true);
    }
  }

  private static int afterLastNewline(byte[] bytes, int end) {
    for (int i = end - 1; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }

  private void waitQuietly(long millis) {
    try {
      wait(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }
}
