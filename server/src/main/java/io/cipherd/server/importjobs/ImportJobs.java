package io.cipherd.server.importjobs;

import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.crypto.keywrap.RsaAesKeyWrap;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * This replica's live import jobs, in memory: a job lives on the replica that made it (behind a
 * load balancer the client keeps one connection from CreateImportJob to ImportKey), and a restart
 * forgets every job, which loses nothing but the job. A job opens exactly one import: {@link
 * #unwrapOnce} removes it before unwrapping, so a blob that fails to unwrap consumes it too (each
 * guess at the private key's padding costs the caller a new job, and with it an RSA key generation:
 * no oracle to query). Expired jobs are dropped at each create and take.
 */
public final class ImportJobs {
  private final ImportJobsConfig config;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, ImportJob> live = new HashMap<>(); // guarded by this
  private final Map<String, Integer> pendingByCaller = new HashMap<>(); // guarded by this
  private int pending; // guarded by this

  /**
   * RSA key generation is the expensive part: one at a time per replica, a create waiting at most
   * {@link #KEY_GENERATION_WAIT_SECONDS} for its turn, refused beyond.
   */
  private final Semaphore keyGeneration = new Semaphore(1);

  private static final long KEY_GENERATION_WAIT_SECONDS = 10;

  public ImportJobs(ImportJobsConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
  }

  public ImportJobsConfig config() {
    return config;
  }

  /**
   * A new job for {@code keyName}, made for {@code caller} (null: an anonymous caller); throws
   * {@link ImportJobLimitException} when the caller or the replica holds as many live jobs as
   * allowed, or another job's key is being generated.
   */
  public ImportJob create(String caller, String keyName, WrappingAlgorithm algorithm) {
    String who = caller == null ? "" : caller;
    reserve(who);
    try {
      if (!acquireKeyGeneration()) {
        throw new ImportJobLimitException(
            "this server is busy generating other import jobs' RSA keys (one at a time)");
      }
      KeyPair pair;
      try {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(algorithm.modulusBits(), random);
        pair = generator.generateKeyPair();
      } catch (NoSuchAlgorithmException missing) {
        throw new CryptoProviderException("RSA key pair generation", missing);
      } finally {
        keyGeneration.release();
      }
      ImportJob job =
          new ImportJob(
              HexFormat.of().formatHex(randomBytes()),
              keyName,
              algorithm,
              who,
              clock.instant().plus(config.ttl()),
              (RSAPublicKey) pair.getPublic(),
              (RSAPrivateKey) pair.getPrivate());
      synchronized (this) {
        live.put(job.id(), job);
      }
      return job;
    } finally {
      release(who);
    }
  }

  /**
   * The key material {@code wrapped} holds for job {@code jobId}, which must be live and made for
   * {@code keyName}; the job ends with this call whether the blob unwraps or not. The caller wipes
   * the result. A job made for another key is left alone (its id is no guess: 128 random bits).
   */
  public byte[] unwrapOnce(String jobId, String keyName, byte[] wrapped) {
    return unwrapOnce(jobId, keyName, wrapped, RsaAesKeyWrap::unwrap);
  }

  /**
   * The serialized key backup {@code wrapped} holds for job {@code jobId}, which must be live and
   * made for {@code keyName}; the job ends with this call as with {@link #unwrapOnce}. The caller
   * wipes the result.
   */
  public byte[] unwrapBackupOnce(String jobId, String keyName, byte[] wrapped) {
    return unwrapOnce(jobId, keyName, wrapped, RsaAesKeyWrap::unwrapBackup);
  }

  /**
   * The key name job {@code jobId} was made for, if it is live: a restore, authorized on the key it
   * names, tells a job made for another key apart from an unusable one. The id is 128 random bits,
   * so this tells nothing about other callers' jobs.
   */
  public synchronized Optional<String> keyNameOf(String jobId) {
    dropExpired(clock.instant());
    return Optional.ofNullable(live.get(jobId)).map(ImportJob::keyName);
  }

  private byte[] unwrapOnce(
      String jobId,
      String keyName,
      byte[] wrapped,
      BiFunction<RSAPrivateKey, byte[], byte[]> unwrap) {
    ImportJob job;
    RSAPrivateKey privateKey;
    synchronized (this) {
      dropExpired(clock.instant());
      job = live.get(jobId);
      if (job == null || !job.keyName().equals(keyName)) {
        throw new ImportJobUnusableException(keyName);
      }
      live.remove(jobId);
      privateKey = job.takePrivateKey();
    }
    try {
      return unwrap.apply(privateKey, wrapped);
    } finally {
      ImportJob.destroy(privateKey);
    }
  }

  /** How many jobs are live (unused, unexpired) now. */
  public synchronized int liveCount() {
    dropExpired(clock.instant());
    return live.size();
  }

  private synchronized void reserve(String caller) {
    dropExpired(clock.instant());
    if (live.size() + pending >= config.maxLive()) {
      throw new ImportJobLimitException(
          "this server holds its most live import jobs (" + config.maxLive() + ")");
    }
    int mine = pendingByCaller.getOrDefault(caller, 0);
    for (ImportJob job : live.values()) {
      if (job.caller().equals(caller)) {
        mine++;
      }
    }
    if (mine >= config.maxLivePerCaller()) {
      throw new ImportJobLimitException(
          "this caller holds its most live import jobs (" + config.maxLivePerCaller() + ")");
    }
    pending++;
    pendingByCaller.merge(caller, 1, Integer::sum);
  }

  private synchronized void release(String caller) {
    pending--;
    pendingByCaller.computeIfPresent(caller, (c, n) -> n == 1 ? null : n - 1);
  }

  private void dropExpired(Instant now) {
    for (Iterator<ImportJob> jobs = live.values().iterator(); jobs.hasNext(); ) {
      ImportJob job = jobs.next();
      if (job.expiredAt(now)) {
        jobs.remove();
        job.end();
      }
    }
  }

  private boolean acquireKeyGeneration() {
    try {
      return keyGeneration.tryAcquire(KEY_GENERATION_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private byte[] randomBytes() {
    byte[] id = new byte[16];
    random.nextBytes(id);
    return id;
  }
}
