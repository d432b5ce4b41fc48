package io.cipherd.server.keystore.pkcs12;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditHeads;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Audit heads in the PKCS12 store: check-and-set, kept across restarts, never reset silently. */
class Pkcs12AuditHeadTest {
  private static final char[] PASSWORD = "audit-head-test".toCharArray();
  private static final String TRAIL = "host-a:/var/log/cipherd/audit.log";

  @TempDir Path dir;

  @Test
  void twoWritersExpectingTheSameHead_oneWins() throws Exception {
    try (Pkcs12KeyStore store = Pkcs12KeyStore.open(dir, PASSWORD)) {
      AuditHead base = AuditHeads.at(TRAIL, 10);
      assertThat(store.writeAuditHead(null, base)).isTrue();
      int writers = 8;
      ExecutorService threads = Executors.newFixedThreadPool(writers);
      CountDownLatch go = new CountDownLatch(1);
      try {
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
          AuditHead next = AuditHeads.at(TRAIL, 11 + i);
          results.add(
              threads.submit(
                  (Callable<Boolean>)
                      () -> {
                        go.await();
                        return store.writeAuditHead(base, next);
                      }));
        }
        go.countDown();
        long winners = 0;
        for (Future<Boolean> result : results) {
          winners += result.get() ? 1 : 0;
        }
        assertThat(winners).isEqualTo(1);
      } finally {
        threads.shutdownNow();
      }
      assertThat(store.readAuditHead(TRAIL).orElseThrow().seq()).isBetween(11L, 18L);
      assertThat(store.writeAuditHead(base, AuditHeads.at(TRAIL, 30))).isFalse();
    }
  }

  @Test
  void heads_surviveReopening_perTrail_inTheirOwnFile() throws Exception {
    AuditHead a = AuditHeads.at(TRAIL, 7);
    AuditHead b = AuditHeads.at("host-b:-", 3);
    try (Pkcs12KeyStore store = Pkcs12KeyStore.open(dir, PASSWORD)) {
      assertThat(store.readAuditHead(TRAIL)).isEmpty();
      assertThat(store.writeAuditHead(null, a)).isTrue();
      assertThat(store.writeAuditHead(null, b)).isTrue();
    }
    try (Pkcs12KeyStore reopened = Pkcs12KeyStore.open(dir, PASSWORD)) {
      assertThat(reopened.readAuditHead(TRAIL)).contains(a);
      assertThat(reopened.readAuditHead("host-b:-")).contains(b);
      assertThat(reopened.writeAuditHead(null, AuditHeads.at(TRAIL, 8))).isFalse();
      assertThat(reopened.writeAuditHead(a, AuditHeads.at(TRAIL, 8))).isTrue();
    }
    assertThat(Files.readString(dir.resolve(AuditHeadsFile.NAME)))
        .contains("\"format\": 1")
        .contains(TRAIL)
        .doesNotContain("material");
  }

  @Test
  void aDamagedHeadsFile_isAnError_neverAFreshStart() throws Exception {
    Files.writeString(dir.resolve(AuditHeadsFile.NAME), "{\"format\": 1, \"heads\": {\"x\": 3}}");
    try (Pkcs12KeyStore store = Pkcs12KeyStore.open(dir, PASSWORD)) {
      assertThatThrownBy(() -> store.readAuditHead(TRAIL))
          .isInstanceOf(KeyStoreUnavailableException.class)
          .hasMessageContaining(AuditHeadsFile.NAME);
      assertThatThrownBy(() -> store.writeAuditHead(null, AuditHeads.at(TRAIL, 1)))
          .isInstanceOf(KeyStoreUnavailableException.class);
    }
  }
}
