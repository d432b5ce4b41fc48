package io.cipherd.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.subjects.MemorySubjectStore;
import io.cipherd.server.subjects.RefusingSubjectStore;
import io.cipherd.server.subjects.SubjectStoreNotConfiguredException;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeteredSubjectStoreTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void roundTrips_areTimedByOperationAndOutcome() {
    MeteredSubjectStore store = new MeteredSubjectStore(new MemorySubjectStore(), registry);
    store.findByRef(List.of());
    store.findByRef(List.of());
    store.find("users", List.of());
    store.countByWrapVersion("users");

    assertThat(timer("find_by_ref", "ok").count()).isEqualTo(2);
    assertThat(timer("find", "ok").count()).isEqualTo(1);
    assertThat(timer("count_by_wrap_version", "ok").count()).isEqualTo(1);
    assertThat(registry.find(MeteredSubjectStore.CALLS).tag("operation", "erase").timer()).isNull();
  }

  @Test
  void aFailedRoundTrip_isCountedUnderItsKind_orAsAnError() {
    MeteredSubjectStore refusing =
        new MeteredSubjectStore(new RefusingSubjectStore("no --subject-store-url"), registry);
    MeteredSubjectStore memory = new MeteredSubjectStore(new MemorySubjectStore(), registry);

    assertThatThrownBy(() -> refusing.findByRef(List.of()))
        .isInstanceOf(SubjectStoreNotConfiguredException.class);
    assertThatThrownBy(() -> memory.findByRef(null)).isInstanceOf(NullPointerException.class);

    assertThat(timer("find_by_ref", "subject_store_not_configured").count()).isEqualTo(1);
    assertThat(timer("find_by_ref", "error").count()).isEqualTo(1);
  }

  private Timer timer(String operation, String outcome) {
    return registry
        .get(MeteredSubjectStore.CALLS)
        .tags("operation", operation, "outcome", outcome)
        .timer();
  }
}
