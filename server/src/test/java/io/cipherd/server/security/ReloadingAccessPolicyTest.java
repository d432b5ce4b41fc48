package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A changed policy file applies without a restart; a broken one is ignored. */
class ReloadingAccessPolicyTest {
  private static final String ENCRYPT_ONLY =
      """
      callers:
        billing:
          rules: [{keys: [payments], operations: [encrypt]}]
      """;
  private static final String ENCRYPT_AND_DECRYPT =
      """
      callers:
        billing:
          rules: [{keys: [payments], operations: [encrypt, decrypt]}]
      """;

  @TempDir Path dir;

  @Test
  void changedFile_replacesThePolicy() throws Exception {
    Path file = write(ENCRYPT_ONLY, 1);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, Duration.ofHours(1))) {
      assertThat(policy.get().allows("billing", Operation.DECRYPT, "payments")).isFalse();

      write(ENCRYPT_AND_DECRYPT, 2);
      policy.reloadIfChanged();

      assertThat(policy.get().allows("billing", Operation.DECRYPT, "payments")).isTrue();
    }
  }

  @Test
  void brokenFile_keepsThePreviousPolicy() throws Exception {
    Path file = write(ENCRYPT_ONLY, 1);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, Duration.ofHours(1))) {
      write(ENCRYPT_ONLY.replace("encrypt", "encrypt, everything"), 2);
      policy.reloadIfChanged();

      assertThat(policy.get().allows("billing", Operation.ENCRYPT, "payments")).isTrue();
      assertThat(policy.get().callers()).isEqualTo(1);
    }
  }

  @Test
  void scheduledCheck_picksUpTheChange() throws Exception {
    Path file = write(ENCRYPT_ONLY, 1);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, Duration.ofMillis(50))) {
      write(ENCRYPT_AND_DECRYPT, 2);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!policy.get().allows("billing", Operation.DECRYPT, "payments")
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(policy.get().allows("billing", Operation.DECRYPT, "payments")).isTrue();
    }
  }

  @Test
  void changedContent_appliesEvenWithTheModificationTimeKept() throws Exception {
    Path file = write(ENCRYPT_AND_DECRYPT, 1);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, Duration.ofHours(1))) {
      write(ENCRYPT_ONLY, 1);
      policy.reloadIfChanged();

      assertThat(policy.get().allows("billing", Operation.DECRYPT, "payments")).isFalse();
    }
  }

  @Test
  void halfWrittenFile_neverApplies_andTheNextValidOneDoes() throws Exception {
    Path file = write(ENCRYPT_ONLY, 1);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, Duration.ofHours(1))) {
      AccessPolicy before = policy.get();
      // Cut where it still parses as YAML but names no rules: not a valid policy.
      write(ENCRYPT_AND_DECRYPT.substring(0, ENCRYPT_AND_DECRYPT.indexOf("rules")), 2);
      policy.reloadIfChanged();
      policy.reloadIfChanged();
      assertThat(policy.get()).isSameAs(before);

      write(ENCRYPT_AND_DECRYPT, 3);
      policy.reloadIfChanged();
      assertThat(policy.get().allows("billing", Operation.DECRYPT, "payments")).isTrue();
    }
  }

  @Test
  void unchangedContent_keepsThePolicyInstance() throws Exception {
    Path file = write(ENCRYPT_ONLY, 1);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, Duration.ofHours(1))) {
      AccessPolicy before = policy.get();
      write(ENCRYPT_ONLY, 2);
      policy.reloadIfChanged();
      // Same content, new time: nothing reloaded, so open streams re-check nothing.
      assertThat(policy.get()).isSameAs(before);
    }
  }

  @Test
  void brokenFileAtStart_failsTheStart() throws Exception {
    Path file = write("callers: {billing: {rules: [{keys: [a], operations: [sign]}]}}\n", 1);
    assertThatThrownBy(() -> ReloadingAccessPolicy.start(file, Duration.ofHours(1)))
        .hasMessageContaining("unknown operation 'sign'");
  }

  /** Writes the policy with a distinct modification time, as a real edit would have. */
  private Path write(String yaml, int generation) throws Exception {
    Path file = dir.resolve("policy.yaml");
    Files.writeString(file, yaml);
    Files.setLastModifiedTime(
        file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(generation)));
    return file;
  }
}
