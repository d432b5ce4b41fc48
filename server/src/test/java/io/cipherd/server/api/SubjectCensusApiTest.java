package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.cipherd.api.v1.VersionCensus;
import io.cipherd.server.keys.KeyTemplate;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GetKeyCensus reports on each version how many live subject keys it wraps, as the subject store
 * counts them: the subjects encrypted for, less those erased, and none on a version the sweep has
 * moved them from.
 */
class SubjectCensusApiTest {
  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir);
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("users").setMode(Mode.MODE_GCM).build());
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void census_countsLiveSubjectKeysPerVersion_andNoneOnAVersionTheSweepEmptied() {
    assertThat(subjectKeysByVersion()).containsExactly(Map.entry(1, 0L));
    for (int i = 0; i < 5; i++) {
      encrypt("user-" + i);
      encrypt("user-" + i);
    }
    assertThat(subjectKeysByVersion()).containsExactly(Map.entry(1, 5L));

    SubjectServiceGrpc.newBlockingStub(cipherd.channel)
        .eraseSubject(
            EraseSubjectRequest.newBuilder().setKeyName("users").setSubject("user-0").build());
    assertThat(subjectKeysByVersion())
        .as("an erased subject's key")
        .containsExactly(Map.entry(1, 4L));

    // Rotated through the store's admin, so no sweep runs in the background.
    cipherd.services.admin().rotate("users", KeyTemplate.defaults());
    encrypt("user-new");
    assertThat(subjectKeysByVersion())
        .as("after the rotation, before the sweep")
        .containsExactly(Map.entry(1, 4L), Map.entry(2, 1L));

    assertThat(cipherd.services.sweepSubjectsNow()).isEqualTo(4);
    assertThat(subjectKeysByVersion())
        .as("after the sweep")
        .containsExactly(Map.entry(1, 0L), Map.entry(2, 5L));
  }

  private void encrypt(String subject) {
    cipherd.crypto.encrypt(
        EncryptRequest.newBuilder()
            .setKeyName("users")
            .setSubject(subject)
            .setPlaintext(ByteString.copyFromUtf8("ada@example.com"))
            .build());
  }

  private Map<Integer, Long> subjectKeysByVersion() {
    Map<Integer, Long> counts = new TreeMap<>();
    for (VersionCensus version :
        cipherd
            .admin
            .getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName("users").build())
            .getVersionsList()) {
      counts.put(version.getVersion(), version.getSubjectKeys());
    }
    return counts;
  }
}
