package io.cipherd.server.subjectkeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.subjects.MemorySubjectStore;
import io.cipherd.server.subjects.SubjectStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A subject-store call made within a batch moves the batch's time to when it returned, whether it
 * answered or failed; outside a batch it changes nothing.
 */
class BatchClockSubjectStoreTest {
  private final SubjectStore store = new BatchClockSubjectStore(new MemorySubjectStore());

  @Test
  void calls_answeredOrFailed_moveTheBatchsTime() {
    assertThat(BatchTime.movedBy(() -> store.findByRef(List.of()))).isTrue();
    assertThat(BatchTime.movedBy(() -> store.find("users", List.of()))).isTrue();
    assertThat(BatchTime.movedBy(() -> store.countByWrapVersion("users"))).isTrue();
    assertThatThrownBy(() -> store.findByRef(null)).isInstanceOf(NullPointerException.class);
    assertThat(BatchTime.movedBy(() -> store.findByRef(null))).isTrue();
    // Without a store call, it stays.
    assertThat(BatchTime.movedBy(() -> {})).isFalse();
  }

  @Test
  void outsideABatch_callsGoStraightThrough() {
    assertThat(store.findByRef(List.of())).isEmpty();
    assertThat(store.countByWrapVersion("users")).isEmpty();
  }
}
