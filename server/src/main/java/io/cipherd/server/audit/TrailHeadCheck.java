package io.cipherd.server.audit;

import io.cipherd.server.keys.AuditHead;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start-time check of a trail against its anchor: do the files still reach the head the key
 * store holds, that is, is there a line numbered {@code head.seq} whose SHA-256 is {@code
 * head.hash}? It looks first at the anchored offset of the live file, then in the files (a rotation
 * the anchor did not hear of moves the line into a rotated file). A file that does not reach its
 * head was cut or rewritten by someone other than the server.
 */
final class TrailHeadCheck {
  private TrailHeadCheck() {}

  /** What the check found. */
  sealed interface Result permits Reached, Cut {}

  /** The files reach the head: {@code file} holds it. */
  record Reached(Path file) implements Result {}

  /**
   * The files do not reach the head.
   *
   * @param anchoredSeq the head's seq
   * @param anchoredHash the head's hash
   * @param foundSeq the last seq the live file holds, -1 if none
   * @param what what was found, for the log and the refusal
   */
  record Cut(long anchoredSeq, String anchoredHash, long foundSeq, String what) implements Result {}

  /**
   * Checks {@code head} against the live file {@code live} (whose last line is numbered {@code
   * lastSeq}, -1 if it is empty) and the rotated files {@code rotated} (oldest first); returns a
   * {@link Reached} or a {@link Cut}.
   */
  static Result check(AuditHead head, Path live, long lastSeq, List<Path> rotated)
      throws IOException {
    String name = live.getFileName().toString();
    if (lastSeq < head.seq() && rotated.isEmpty()) {
      return cut(head, lastSeq, endsBefore(name, lastSeq, head));
    }
    TrailLines.Line atOffset = TrailLines.at(live, head.offset());
    if (atOffset != null && atOffset.seq() == head.seq() && atOffset.hash().equals(head.hash())) {
      return new Reached(live);
    }
    // The newest file whose first line is at or before the head holds it, if any does.
    Path holder = null;
    for (Path file : concat(rotated, live)) {
      TrailLines.Line first = TrailLines.first(file);
      if (first != null && first.seq() >= 0 && first.seq() <= head.seq()) {
        holder = file;
      }
    }
    TrailLines.Line found = holder == null ? null : TrailLines.find(holder, head.seq());
    if (found == null) {
      return cut(head, lastSeq, endsBefore(name, lastSeq, head));
    }
    if (!found.hash().equals(head.hash())) {
      return cut(
          head,
          lastSeq,
          "the line at seq "
              + head.seq()
              + " in "
              + holder.getFileName()
              + " is not the anchored head (SHA-256 "
              + found.hash()
              + ", anchored "
              + head.hash()
              + "): the trail was rewritten");
    }
    return new Reached(holder);
  }

  private static String endsBefore(String name, long lastSeq, AuditHead head) {
    return (lastSeq < 0 ? name + " holds no audit line" : name + " ends at seq " + lastSeq)
        + " and no file holds the anchored head at seq "
        + head.seq()
        + ": lines were removed from the trail's end";
  }

  private static Cut cut(AuditHead head, long lastSeq, String what) {
    return new Cut(head.seq(), head.hash(), lastSeq, what);
  }

  private static List<Path> concat(List<Path> rotated, Path live) {
    List<Path> all = new ArrayList<>(rotated);
    all.add(live);
    return all;
  }
}
