package io.cipherd.server.pool;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CipherSource;
import java.security.GeneralSecurityException;
import java.util.EnumMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.LongAdder;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * Bounded pools of ready {@link Cipher} objects, one pool per mode that runs on a JCE cipher
 * ({@link CipherMode#pooled}). {@code Cipher.getInstance} costs about a microsecond and hundreds of
 * bytes, and a Cipher is not thread-safe: a caller borrows one, initialises it with its own key and
 * IV, uses it, and gives it back.
 */
public final class CipherPools implements CipherSource, AutoCloseable {
  private final Map<CipherMode, GenericObjectPool<Cipher>> pools = new EnumMap<>(CipherMode.class);
  private final CipherPoolConfig config;

  /**
   * Time spent in borrow and borrows that timed out, per mode. Two clock reads and a LongAdder add
   * cost a few tens of nanoseconds, far less than the pool's detailed statistics (disabled below).
   */
  private final Map<CipherMode, LongAdder> borrowWaitNanos = new EnumMap<>(CipherMode.class);

  private final Map<CipherMode, LongAdder> exhausted = new EnumMap<>(CipherMode.class);

  public CipherPools(CipherPoolConfig config) {
    this.config = config;
    for (CipherMode mode : CipherMode.pooled()) {
      pools.put(mode, new GenericObjectPool<>(new Factory(mode), poolConfig(config)));
      borrowWaitNanos.put(mode, new LongAdder());
      exhausted.put(mode, new LongAdder());
    }
  }

  /** As {@link #borrow(CipherMode)}: the pool does not tell ciphers apart by their last key. */
  @Override
  public Cipher borrow(CipherMode mode, SecretKey key) {
    return borrow(mode);
  }

  @Override
  public void release(CipherMode mode, SecretKey key, Cipher cipher) {
    release(mode, cipher);
  }

  /**
   * Borrows a cipher of {@code mode}; throws {@link CipherPoolExhaustedException} after the bounded
   * wait.
   */
  public Cipher borrow(CipherMode mode) {
    long start = System.nanoTime();
    try {
      return pools.get(mode).borrowObject();
    } catch (NoSuchElementException e) {
      exhausted.get(mode).increment();
      throw new CipherPoolExhaustedException(mode, config.maxWait().toMillis());
    } catch (Exception e) {
      throw new IllegalStateException("cannot create a " + mode.transformation() + " cipher", e);
    } finally {
      borrowWaitNanos.get(mode).add(System.nanoTime() - start);
    }
  }

  /** Returns a cipher that finished its operation normally. */
  public void release(CipherMode mode, Cipher cipher) {
    pools.get(mode).returnObject(cipher);
  }

  /** Drops a cipher that threw, so no half-initialised state is reused. */
  @Override
  public void invalidate(CipherMode mode, Cipher cipher) {
    try {
      pools.get(mode).invalidateObject(cipher);
    } catch (Exception e) {
      // Destroying a Cipher does nothing; the pool has already forgotten it.
    }
  }

  /**
   * Drops every idle cipher of every mode. An idle cipher still holds the key schedule of the key
   * it last used, so forgetting the keys must drop these too; borrowed ciphers are unaffected and
   * are pooled again when returned.
   */
  public void clear() {
    pools.values().forEach(GenericObjectPool::clear);
  }

  /** The pool of {@code mode}, for metrics; null for a mode without pooled ciphers (siv). */
  public GenericObjectPool<Cipher> pool(CipherMode mode) {
    return pools.get(mode);
  }

  /** Total nanoseconds spent in {@link #borrow} for {@code mode}, for metrics. */
  public long borrowWaitNanos(CipherMode mode) {
    return borrowWaitNanos.get(mode).sum();
  }

  /** Borrows of {@code mode} that timed out, for metrics. */
  public long exhaustedCount(CipherMode mode) {
    return exhausted.get(mode).sum();
  }

  @Override
  public void close() {
    pools.values().forEach(GenericObjectPool::close);
  }

  private static GenericObjectPoolConfig<Cipher> poolConfig(CipherPoolConfig config) {
    GenericObjectPoolConfig<Cipher> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(config.maxTotal());
    pool.setMaxIdle(config.maxIdle());
    pool.setMinIdle(0);
    pool.setBlockWhenExhausted(true);
    pool.setMaxWait(config.maxWait());
    pool.setLifo(true);
    pool.setJmxEnabled(false);
    // Detailed statistics (mean/max wait, idle and active times) cost a clock read and three
    // synchronized ring-buffer writes per borrow and return: about a quarter of the pool's overhead
    // on
    // a ~1.4 us encrypt, and a lock every thread shares. The counts (created, destroyed, borrowed,
    // active, idle, waiters) stay available for metrics.
    pool.setCollectDetailedStatistics(false);
    pool.setTestOnBorrow(false);
    pool.setTestOnReturn(false);
    return pool;
  }

  private static final class Factory extends BasePooledObjectFactory<Cipher> {
    private final CipherMode mode;

    Factory(CipherMode mode) {
      this.mode = mode;
    }

    @Override
    public Cipher create() throws GeneralSecurityException {
      return Cipher.getInstance(mode.transformation());
    }

    @Override
    public PooledObject<Cipher> wrap(Cipher cipher) {
      return new DefaultPooledObject<>(cipher);
    }
  }
}
