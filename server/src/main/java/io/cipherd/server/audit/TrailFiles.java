package io.cipherd.server.audit;

import io.cipherd.server.keys.AuditHead;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a trail is kept in, as its anchor lists them: the rotated files still kept (oldest
 * first) and the live file, with the first line the trail keeps. Taken over from the anchored head
 * at start, so a file removed behind the server's back stays listed (and a verifier names it
 * missing); changed by rotation and retention. Owned by the audit writer's thread.
 */
final class TrailFiles {
  private static final Logger log = LoggerFactory.getLogger(TrailFiles.class);

  private final Path live;
  private final List<AuditHead.TrailFile> rotated;
  private long liveFirstSeq;
  private long firstSeq;
  private String firstHash;

  private TrailFiles(
      Path live, List<AuditHead.TrailFile> rotated, long liveFirstSeq, TrailLines.Line first) {
    this.live = live;
    this.rotated = new ArrayList<>(rotated);
    this.liveFirstSeq = liveFirstSeq;
    this.firstSeq = Math.max(0, first.seq());
    this.firstHash = first.hash();
  }

  /** The trail on standard output, whose first line this server wrote. */
  static TrailFiles standardOutput(long firstSeq, String firstHash) {
    return new TrailFiles(null, List.of(), firstSeq, new TrailLines.Line(firstSeq, firstHash));
  }

  /**
   * The files of a trail that was anchored before: those {@code head} lists, then any rotated file
   * on disk newer than the last it lists (a rotation the anchor did not hear of), then {@code
   * live}.
   */
  static TrailFiles fromHead(AuditHead head, Path live) throws IOException {
    List<AuditHead.TrailFile> listed =
        new ArrayList<>(head.files().subList(0, head.files().size() - 1));
    long after = listed.isEmpty() ? -1 : listed.get(listed.size() - 1).lastSeq();
    List<AuditHead.TrailFile> newer =
        onDisk(live).stream().filter(file -> file.firstSeq() > after).toList();
    listed.addAll(newer);
    TrailLines.Line liveFirst = liveFirst(live);
    return new TrailFiles(
        live, listed, liveFirst.seq(), new TrailLines.Line(head.firstSeq(), head.firstHash()));
  }

  /** The files of a trail never anchored: every rotated file beside {@code live}, and it. */
  static TrailFiles discovered(Path live) throws IOException {
    List<AuditHead.TrailFile> rotated = onDisk(live);
    TrailLines.Line liveFirst = liveFirst(live);
    TrailLines.Line first =
        rotated.isEmpty()
            ? liveFirst
            : TrailLines.first(live.resolveSibling(rotated.get(0).name()));
    return new TrailFiles(live, rotated, liveFirst.seq(), first);
  }

  /** The rotated files beside {@code live} on disk, as paths, oldest first. */
  static List<Path> rotatedPaths(Path live) throws IOException {
    return onDisk(live).stream().map(f -> live.resolveSibling(f.name())).toList();
  }

  /** The live file was renamed to {@code aside}, its last line {@code lastSeq}. */
  void rotated(String aside, long lastSeq) {
    rotated.add(new AuditHead.TrailFile(aside, liveFirstSeq, lastSeq));
    liveFirstSeq = lastSeq + 1;
  }

  /**
   * Deletes the rotated files beyond the newest {@code keep} (0: keeps all), and moves the trail's
   * first line to the first line of the oldest file kept. Returns the files deleted.
   */
  List<AuditHead.TrailFile> retain(int keep) throws IOException {
    List<AuditHead.TrailFile> removed = new ArrayList<>();
    if (keep <= 0 || live == null) {
      return removed;
    }
    while (rotated.size() > keep) {
      AuditHead.TrailFile oldest = rotated.remove(0);
      Files.deleteIfExists(live.resolveSibling(oldest.name()));
      removed.add(oldest);
    }
    if (!removed.isEmpty()) {
      Path oldestKept = rotated.isEmpty() ? live : live.resolveSibling(rotated.get(0).name());
      TrailLines.Line first = TrailLines.first(oldestKept);
      if (first == null || first.seq() < 0) {
        log.error(
            "the oldest audit file kept, {}, has no audit line; the anchor keeps its first line",
            oldestKept);
      } else {
        firstSeq = first.seq();
        firstHash = first.hash();
      }
    }
    return removed;
  }

  /**
   * The head to anchor for checkpoint {@code seq} (line hash {@code hash}) of trail {@code trail}.
   */
  AuditHead head(
      String trail, long seq, String hash, String time, long offset, Instant anchoredAt) {
    List<AuditHead.TrailFile> files = new ArrayList<>(rotated);
    files.add(
        new AuditHead.TrailFile(
            live == null ? "-" : live.getFileName().toString(), liveFirstSeq, seq));
    return new AuditHead(
        trail, seq, hash, time, offset, Math.min(firstSeq, seq), firstHash, files, anchoredAt);
  }

  private static TrailLines.Line liveFirst(Path live) throws IOException {
    TrailLines.Line first = TrailLines.first(live);
    if (first == null) {
      throw new IOException(live + " holds no line after its start line was written");
    }
    return first;
  }

  /**
   * The rotated files beside {@code live} ({@code NAME.<suffix>}), each with the seq of its first
   * line, ordered by it; the last seq of each is the first of the next minus one.
   */
  private static List<AuditHead.TrailFile> onDisk(Path live) throws IOException {
    String prefix = live.getFileName().toString() + ".";
    record Found(String name, long firstSeq) {}
    List<Found> found = new ArrayList<>();
    Path dir = live.toAbsolutePath().getParent();
    try (Stream<Path> listing = Files.list(dir)) {
      for (Path file : listing.toList()) {
        String name = file.getFileName().toString();
        if (!name.startsWith(prefix) || name.endsWith(".tmp") || !Files.isRegularFile(file)) {
          continue;
        }
        TrailLines.Line first = TrailLines.first(file);
        if (first != null && first.seq() >= 0) {
          found.add(new Found(name, first.seq()));
        }
      }
    }
    found.sort(Comparator.comparingLong(Found::firstSeq));
    TrailLines.Line liveFirst = TrailLines.first(live);
    List<AuditHead.TrailFile> files = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      long next =
          i + 1 < found.size()
              ? found.get(i + 1).firstSeq()
              : liveFirst == null ? found.get(i).firstSeq() : liveFirst.seq();
      files.add(
          new AuditHead.TrailFile(
              found.get(i).name(),
              found.get(i).firstSeq(),
              Math.max(found.get(i).firstSeq(), next - 1)));
    }
    return files;
  }
}
