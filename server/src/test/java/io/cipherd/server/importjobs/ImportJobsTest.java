package io.cipherd.server.importjobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.keywrap.JdkKeyWrap;
import io.cipherd.server.crypto.keywrap.UnwrapFailedException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.keys.SettableClock;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The registry of import jobs: single use, expiry, one key per job, and the live-job limits. */
class ImportJobsTest {
  private static final byte[] MATERIAL = new byte[32];

  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T06:00:00Z"));
  private final ImportJobs jobs =
      new ImportJobs(new ImportJobsConfig(Duration.ofMinutes(10), 4, 2), clock);

  @Test
  void aJob_unwrapsItsOwnBlob_once() throws Exception {
    ImportJob job = jobs.create("alice", "orders", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    byte[] blob = JdkKeyWrap.wrap(publicKey(job), MATERIAL);

    assertThat(job.expireTime()).isEqualTo(Instant.parse("2026-11-27T06:10:00Z"));
    assertThat(publicKey(job).getModulus().bitLength()).isEqualTo(3072);
    assertThat(jobs.unwrapOnce(job.id(), "orders", blob)).isEqualTo(MATERIAL);
    assertThat(jobs.liveCount()).isZero();
    assertThatThrownBy(() -> jobs.unwrapOnce(job.id(), "orders", blob))
        .isInstanceOf(ImportJobUnusableException.class);
  }

  @Test
  void aBlobThatDoesNotUnwrap_consumesTheJob() throws Exception {
    ImportJob job = jobs.create("alice", "orders", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    byte[] blob = JdkKeyWrap.wrap(publicKey(job), MATERIAL);
    byte[] tampered = blob.clone();
    tampered[tampered.length - 1] ^= 1;

    assertThatThrownBy(() -> jobs.unwrapOnce(job.id(), "orders", tampered))
        .isInstanceOf(UnwrapFailedException.class);
    assertThatThrownBy(() -> jobs.unwrapOnce(job.id(), "orders", blob))
        .isInstanceOf(ImportJobUnusableException.class);
  }

  @Test
  void aJob_forAnotherKey_isRefused_andStaysForItsOwn() throws Exception {
    ImportJob job = jobs.create("alice", "orders", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096);
    byte[] blob = JdkKeyWrap.wrap(publicKey(job), MATERIAL);

    assertThat(publicKey(job).getModulus().bitLength()).isEqualTo(4096);
    assertThatThrownBy(() -> jobs.unwrapOnce(job.id(), "users", blob))
        .isInstanceOf(ImportJobUnusableException.class)
        .extracting(e -> ((ImportJobUnusableException) e).kind())
        .isEqualTo(ErrorKind.IMPORT_JOB_UNUSABLE);
    assertThat(jobs.unwrapOnce(job.id(), "orders", blob)).isEqualTo(MATERIAL);
  }

  @Test
  void anExpiredJob_isUnusable_andNoLongerLive() throws Exception {
    ImportJob job = jobs.create("alice", "orders", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    byte[] blob = JdkKeyWrap.wrap(publicKey(job), MATERIAL);

    clock.advance(Duration.ofMinutes(10));

    assertThat(jobs.liveCount()).isZero();
    assertThatThrownBy(() -> jobs.unwrapOnce(job.id(), "orders", blob))
        .isInstanceOf(ImportJobUnusableException.class);
  }

  @Test
  void liveJobs_areBounded_perCallerAndInAll() {
    jobs.create("alice", "a", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    jobs.create("alice", "b", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    assertThatThrownBy(
            () -> jobs.create("alice", "c", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072))
        .isInstanceOf(ImportJobLimitException.class)
        .hasMessageContaining("this caller holds its most live import jobs (2)")
        .extracting(e -> ((ImportJobLimitException) e).kind())
        .isEqualTo(ErrorKind.SERVER_BUSY);
    jobs.create("bob", "c", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    jobs.create(null, "d", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    assertThatThrownBy(
            () -> jobs.create("carol", "e", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072))
        .isInstanceOf(ImportJobLimitException.class)
        .hasMessageContaining("this server holds its most live import jobs (4)");

    clock.advance(Duration.ofMinutes(10));

    assertThat(jobs.create("carol", "e", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072))
        .isNotNull();
  }

  @Test
  void toString_showsNoKey() {
    ImportJob job = jobs.create("alice", "orders", WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);

    assertThat(job.toString()).contains(job.id(), "orders").doesNotContain("BEGIN", "MII");
  }

  @Test
  void config_refusesALifetimeBeyondADay() {
    assertThatThrownBy(() -> new ImportJobsConfig(Duration.ofHours(25), 4, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT24H");
  }

  private static RSAPublicKey publicKey(ImportJob job) throws Exception {
    return JdkKeyWrap.publicKey(job.publicKeyPem());
  }
}
