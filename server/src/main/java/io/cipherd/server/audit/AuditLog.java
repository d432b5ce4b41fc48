package io.cipherd.server.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail: one thread writes every call's record to the audit file as a hash-chained JSON
 * line, committing the records that queued up meanwhile together (one write and one fsync for a
 * group), and completes each record's future once it is written (durable, as {@link Settings}
 * says). Every {@code checkpointEvery} records or {@code checkpointInterval}, and before a rotation
 * or shutdown, it writes a checkpoint MACed with the audit key.
 *
 * <p>A record that cannot be queued or written fails its future; the caller decides whether that
 * fails the call ({@code --audit-required}) or only counts as a write error.
 */
public final class AuditLog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AuditLog.class);
  private static final int MAX_GROUP = 4096;

  /**
   * Without forcing each group, how long the writer lets records gather after the first before it
   * writes them: while it waits, callers queue records without waking it, so a busy server makes a
   * few hundred writes a second rather than one per call.
   */
  private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /**
   * How the trail is kept. With {@code forceEachGroup} every group is forced to disk before its
   * records' futures complete (what {@code --audit-required} promises); without it a group is
   * written at once (a process crash loses nothing) and forced with each checkpoint, so a machine
   * crash loses at most the records since the last one.
   */
  public record Settings(
      int checkpointEvery,
      Duration checkpointInterval,
      long rotateBytes,
      int queueCapacity,
      boolean forceEachGroup,
      int retainFiles) {
    public static final Settings DEFAULTS =
        new Settings(10_000, Duration.ofSeconds(1), 256L << 20, 65_536, true, 0);

    /** Keeping every rotated file. */
    public Settings(
        int checkpointEvery,
        Duration checkpointInterval,
        long rotateBytes,
        int queueCapacity,
        boolean forceEachGroup) {
      this(checkpointEvery, checkpointInterval, rotateBytes, queueCapacity, forceEachGroup, 0);
    }

    /** Forcing every group. */
    public Settings(
        int checkpointEvery, Duration checkpointInterval, long rotateBytes, int queueCapacity) {
      this(checkpointEvery, checkpointInterval, rotateBytes, queueCapacity, true);
    }
  }

  /** What the trail reports, for metrics. */
  public interface Listener {
    void written(int records);

    void failed(int records);
  }

  private record Pending(
      AuditRecord record, CompletableFuture<Void> written, CompletableFuture<Placed> placed) {
    Pending(AuditRecord record, CompletableFuture<Void> written) {
      this(record, written, null);
    }
  }

  /** Where a written record landed: its seq and its line's chain hash. */
  public record Placed(long seq, String hash) {}

  /** A checkpoint written to the group and not yet forced: what its anchor will name. */
  private record Checkpoint(long seq, String hash, String time, long offset) {}

  private final BlockingQueue<Pending> queue;
  private final AuditKey key;
  private final Clock clock;
  private final Settings settings;
  private final Listener listener;
  private final Path path;
  private final Thread writer;
  private final AuditAnchor anchor;
  private final GroupBuffer group = new GroupBuffer(1 << 16);
  private final AuditSink sink;
  private volatile boolean closed;

  /** Set by the writer when a group fails, cleared when one is committed: open streams look. */
  private volatile boolean failing;

  // Owned by the writer thread after construction.
  private AuditFile file;
  private AuditChain chain;
  private long sinceCheckpoint;
  private Instant lastCheckpoint;
  private boolean forceNext;
  private TrailFiles files;
  private Checkpoint unanchored;
  private AuditSink.Group lastSent;

  private AuditLog(
      Path path,
      AuditKey key,
      Clock clock,
      Settings settings,
      Listener listener,
      AuditAnchor anchor,
      AuditSink sink)
      throws IOException {
    this.path = path;
    this.anchor = anchor;
    this.sink = sink;
    this.key = key;
    this.clock = clock;
    this.settings = settings;
    this.listener = listener;
    this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
    this.lastCheckpoint = clock.instant();
    open("new");
    this.writer = Thread.ofPlatform().name("cipherd-audit").daemon().unstarted(this::run);
  }

  /**
   * Opens the trail in {@code path} (continuing the chain of the lines it holds), or on standard
   * output when {@code path} is null, and starts its writer.
   */
  public static AuditLog open(
      Path path, AuditKey key, Clock clock, Settings settings, Listener listener)
      throws IOException {
    return open(path, key, clock, settings, listener, null, null);
  }

  /**
   * As {@link #open(Path, AuditKey, Clock, Settings, Listener)}, the trail kept in its {@code
   * anchor} (null: none): checked against the anchored head at start, and anchored at each
   * checkpoint once it is durable; and every group also sent to {@code sink} (null for none), so
   * with {@code forceEachGroup} a record is durable only once the sink has it too. The log closes
   * the anchor and the sink.
   */
  public static AuditLog open(
      Path path,
      AuditKey key,
      Clock clock,
      Settings settings,
      Listener listener,
      AuditAnchor anchor,
      AuditSink sink)
      throws IOException {
    AuditLog trail = new AuditLog(path, key, clock, settings, listener, anchor, sink);
    trail.writer.start();
    return trail;
  }

  /**
   * True from a group that could not be written (to the file, or with {@code forceEachGroup} to the
   * sink) until one is: an open stream under {@code --audit-required} serves no item meanwhile.
   */
  public boolean failing() {
    return failing;
  }

  /**
   * Queues {@code record}; the future completes once it is written (see {@link Settings}), or
   * fails.
   */
  public CompletableFuture<Void> append(AuditRecord record) {
    Pending pending = new Pending(record, new CompletableFuture<>());
    if (closed || !queue.offer(pending)) {
      listener.failed(1);
      pending
          .written()
          .completeExceptionally(
              new AuditUnavailableException("the audit trail is not keeping up; retry later"));
    }
    return pending.written();
  }

  /**
   * As {@link #append}, the future completing with where the record landed in the chain: its
   * sequence number and its line's hash.
   */
  public CompletableFuture<Placed> appendPlaced(AuditRecord record) {
    CompletableFuture<Placed> placed = new CompletableFuture<>();
    Pending pending = new Pending(record, new CompletableFuture<>(), placed);
    if (closed || !queue.offer(pending)) {
      listener.failed(1);
      pending
          .written()
          .completeExceptionally(
              new AuditUnavailableException("the audit trail is not keeping up; retry later"));
    }
    return pending.written().thenCompose(done -> placed);
  }

  /** Writes what is queued and a last checkpoint (and anchors it), then stops the writer. */
  @Override
  public void close() throws InterruptedException {
    closed = true;
    queue.put(STOP);
    writer.join(Duration.ofSeconds(10));
    if (anchor != null) {
      anchor.close();
    }
  }

  /** Queued by {@link #close}: the writer commits what came before it, then stops. */
  private static final Pending STOP = new Pending(null, new CompletableFuture<>());

  private void run() {
    List<Pending> batch = new ArrayList<>();
    boolean stopping = false;
    while (!stopping) {
      try {
        Pending first = queue.poll(untilCheckpoint(), TimeUnit.MILLISECONDS);
        if (first != null) {
          batch.add(first);
          if (!settings.forceEachGroup() && first != STOP) {
            LockSupport.parkNanos(LINGER_NANOS);
          }
          queue.drainTo(batch, MAX_GROUP - 1);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stopping = true;
      }
      stopping |= batch.remove(STOP);
      commit(batch);
      batch.clear();
    }
    // A record queued while close ran, after STOP: refused like one that came later.
    queue.drainTo(batch);
    batch.remove(STOP);
    fail(batch, "the audit trail is closed");
    try {
      if (sinceCheckpoint > 0) {
        writeCheckpoint();
        flush();
      }
      file.close();
    } catch (IOException | RuntimeException e) {
      log.error("could not close the audit trail: {}", e.toString());
    }
    if (sink != null) {
      try {
        sink.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private long untilCheckpoint() {
    long due = lastCheckpoint.plus(settings.checkpointInterval()).toEpochMilli();
    return Math.max(1, due - clock.millis());
  }

  /** Writes {@code batch} (and a checkpoint when one is due) as one group, then completes it. */
  private void commit(List<Pending> batch) {
    try {
      recordSinkLoss();
      for (Pending pending : batch) {
        long seq = chain.nextSeq();
        add(AuditLine.of(pending.record(), seq, chain.prev()));
        if (pending.placed() != null) {
          placedNow.add(new Placed(seq, chain.prev()));
          placedFutures.add(pending.placed());
        }
      }
      sinceCheckpoint += batch.size();
      if (checkpointDue()) {
        writeCheckpoint();
      }
      flush();
      if (file.rotatable() && file.size() >= settings.rotateBytes()) {
        rotate();
      }
      if (sink != null && settings.forceEachGroup() && !batch.isEmpty()) {
        sink.awaitDelivered(lastSent);
      }
      if (!batch.isEmpty()) {
        failing = false;
      }
    } catch (IOException | RuntimeException e) {
      failing = true;
      log.error("could not write {} audit records: {}", batch.size(), e.toString());
      placedNow.clear();
      placedFutures.clear();
      fail(batch, "the audit record could not be written");
      recover();
      return;
    }
    if (!batch.isEmpty()) {
      listener.written(batch.size());
    }
    for (int i = 0; i < placedFutures.size(); i++) {
      placedFutures.get(i).complete(placedNow.get(i));
    }
    placedNow.clear();
    placedFutures.clear();
    for (Pending pending : batch) {
      pending.written().complete(null);
    }
  }

  // The writer thread's: the placed records of the group being committed.
  private final List<Placed> placedNow = new ArrayList<>();
  private final List<CompletableFuture<Placed>> placedFutures = new ArrayList<>();

  private void fail(List<Pending> batch, String why) {
    if (batch.isEmpty()) {
      return;
    }
    listener.failed(batch.size());
    for (Pending pending : batch) {
      pending.written().completeExceptionally(new AuditUnavailableException(why));
    }
  }

  private boolean checkpointDue() {
    return sinceCheckpoint >= settings.checkpointEvery()
        || (sinceCheckpoint > 0
            && !clock.instant().isBefore(lastCheckpoint.plus(settings.checkpointInterval())));
  }

  private void add(byte[] line) {
    group.writeBytes(line);
    group.write('\n');
    chain.append(line);
  }

  private void writeCheckpoint() throws IOException {
    Instant now = clock.instant();
    long seq = chain.nextSeq();
    long offset = file.rotatable() ? file.size() + group.size() : -1;
    add(AuditLine.checkpoint(seq, now, chain.prev(), key));
    unanchored = new Checkpoint(seq, chain.prev(), now.toString(), offset);
    sinceCheckpoint = 0;
    lastCheckpoint = now;
    forceNext = true;
  }

  private void flush() throws IOException {
    if (group.size() == 0) {
      return;
    }
    try {
      file.write(group.written());
      if (sink != null) {
        // What the file took, the sink gets, even if forcing it fails next. The sink keeps the
        // array, so it gets a copy; the file is written from the buffer itself.
        lastSent = sink.send(group.toByteArray());
      }
      if (forceNext || settings.forceEachGroup()) {
        file.force();
        forceNext = false;
        anchorForced();
      }
    } finally {
      group.reset();
    }
  }

  /** A {@code system} line for lines the sink's full buffer dropped, so the file says so. */
  private void recordSinkLoss() {
    SystemRecord loss = sink == null ? null : sink.takeLossRecord(clock.instant());
    if (loss != null) {
      add(AuditLine.of(loss, chain.nextSeq(), chain.prev()));
    }
  }

  /** Anchors the checkpoint just forced, if there is one. */
  private void anchorForced() {
    if (unanchored == null || anchor == null || files == null) {
      return;
    }
    Checkpoint checkpoint = unanchored;
    unanchored = null;
    anchor.post(
        files.head(
            anchor.trail(),
            checkpoint.seq(),
            checkpoint.hash(),
            checkpoint.time(),
            checkpoint.offset(),
            clock.instant()));
  }

  /**
   * Ends this file with a checkpoint and goes on in a new one, the chain unbroken; deletes rotated
   * files beyond those {@code retainFiles} keeps, then checkpoints the new file so the anchor lists
   * the files as they now are.
   */
  private void rotate() throws IOException {
    writeCheckpoint();
    flush();
    long lastSeq = chain.nextSeq() - 1;
    Instant now = clock.instant();
    AuditFile.Rotated rotated = file.rotate(now);
    file = rotated.next();
    add(
        AuditLine.start(
            chain.nextSeq(), now, "rotation", rotated.aside(), trailName(), null, chain.prev()));
    forceNext = true;
    flush();
    if (files != null) {
      files.rotated(rotated.aside(), lastSeq);
      for (var removed : files.retain(settings.retainFiles())) {
        log.info(
            "deleted the rotated audit file {} (seq {} to {}): --audit-retain-files keeps {}",
            removed.name(),
            removed.firstSeq(),
            removed.lastSeq(),
            settings.retainFiles());
      }
    }
    if (anchor != null) {
      writeCheckpoint();
      flush();
    }
  }

  private String trailName() {
    return anchor == null ? null : anchor.trail();
  }

  /** After a failed write, reopens the file and continues the chain from what is really in it. */
  private void recover() {
    group.reset();
    unanchored = null; // its checkpoint may never have reached the file: never anchor it
    try {
      file.close();
      open("recovery");
    } catch (IOException | RuntimeException e) {
      log.error("the audit trail is still unwritable: {}", e.toString());
    }
  }

  /**
   * Opens the file and writes a start line. At the first open ({@code why} is {@code new}) with an
   * anchor, checks first that the file reaches the anchored head: a cut refuses to start (with
   * {@code --audit-required}) or is recorded in the start line.
   */
  private void open(String why) throws IOException {
    file = path == null ? AuditFile.stdout() : AuditFile.open(path);
    AuditFile.Resumed resumed = file.chain();
    chain = resumed.chain();
    boolean first = why.equals("new");
    TrailHeadCheck.Cut cut = null;
    if (first && anchor != null) {
      try {
        cut = anchor.check(path, resumed.continued() ? chain.nextSeq() - 1 : -1);
      } catch (RuntimeException | IOException e) {
        file.close();
        throw e;
      }
    }
    String reason = resumed.continued() && first ? "restart" : why;
    long startSeq = chain.nextSeq();
    add(AuditLine.start(startSeq, clock.instant(), reason, null, trailName(), cut, chain.prev()));
    String startHash = chain.prev();
    forceNext = true;
    flush();
    if (first && anchor != null) {
      files =
          path == null
              ? TrailFiles.standardOutput(startSeq, startHash)
              : anchor.atStart().isPresent()
                  ? TrailFiles.fromHead(anchor.atStart().get(), path)
                  : TrailFiles.discovered(path);
    }
  }

  /** The group's bytes, which the file is written from in place rather than copied first. */
  private static final class GroupBuffer extends ByteArrayOutputStream {
    GroupBuffer(int size) {
      super(size);
    }

    /** What was written since the last reset, as a view of the buffer (valid until the next). */
    ByteBuffer written() {
      return ByteBuffer.wrap(buf, 0, count);
    }
  }
}
