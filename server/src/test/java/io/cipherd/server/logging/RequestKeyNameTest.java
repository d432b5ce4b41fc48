package io.cipherd.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import org.junit.jupiter.api.Test;

/**
 * The key names access-log lines show for legacy rewraps: the legacy key and the target, never the
 * data.
 */
class RequestKeyNameTest {
  private static final LegacyCiphertext LEGACY =
      LegacyCiphertext.newBuilder()
          .setKeyName("mysql-users")
          .setHex("FF06A56B4E88C828A010E9BD0CE70A89")
          .build();

  @Test
  void legacyRewrap_showsTheLegacyKeyAndTheTarget() {
    assertThat(
            RequestKeyName.of(
                ReEncryptRequest.newBuilder().setLegacy(LEGACY).setKeyName("modern").build()))
        .isEqualTo("mysql-users->modern");
    assertThat(
            RequestKeyName.of(
                ReEncryptStreamRequest.newBuilder()
                    .setLegacy(LEGACY.toBuilder().setKeyVersion(2))
                    .setKeyName("modern")
                    .build()))
        .isEqualTo("mysql-users/v2->modern");
    assertThat(
            RequestKeyName.of(
                ReEncryptBatchRequest.newBuilder()
                    .setKeyName("modern")
                    .addItems(ReEncryptBatchItem.newBuilder().setLegacy(LEGACY))
                    .build()))
        .isEqualTo("mysql-users->modern");
  }

  @Test
  void legacyRewrap_withAHostileOrMissingName_showsNeither() {
    assertThat(
            RequestKeyName.of(
                ReEncryptRequest.newBuilder()
                    .setLegacy(LEGACY.toBuilder().setKeyName("x\nforged line").setKeyVersion(3))
                    .build()))
        .isEqualTo(RequestKeyName.INVALID + "->" + RequestKeyName.NONE);
  }
}
