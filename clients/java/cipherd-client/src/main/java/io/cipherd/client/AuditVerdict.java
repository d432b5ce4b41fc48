package io.cipherd.client;

import java.util.Optional;

/**
 * What an audit trail's files showed: {@code problem} is "FILE:LINE: what" for the first line
 * blamed (empty when intact), with the counts of call, checkpoint and torn lines, the calls after
 * the last checkpoint, whether checkpoint MACs were checked, whether completeness was (a head was
 * given), and the trail name its start lines carry.
 */
public record AuditVerdict(
    Optional<String> problem,
    int calls,
    int checkpoints,
    int torn,
    int uncheckedCalls,
    boolean macsChecked,
    boolean completenessChecked,
    String trail) {
  public boolean intact() {
    return problem.isEmpty();
  }
}
