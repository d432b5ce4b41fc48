package io.cipherd.server.crypto.fpe;

import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.errors.InvalidArgumentException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.bouncycastle.crypto.BlockCipher;
import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.fpe.FPEFF1Engine;
import org.bouncycastle.crypto.params.FPEParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.util.RadixConverter;

/**
 * FF1 (NIST SP 800-38G) over AES-128, -192 or -256: a permutation of the strings of one length over
 * a radix, chosen by the key and a tweak. BouncyCastle's {@link FPEFF1Engine} computes it; this
 * class owns the limits cipherd puts on it, checked before any work so that a refused input costs
 * nothing:
 *
 * <ul>
 *   <li>a radix from 2 to 65,536 (the standard's);
 *   <li>at least {@link #MIN_DOMAIN} strings of that length (radix<sup>length</sup>), as the draft
 *       of SP 800-38G Rev. 1 requires and BouncyCastle enforces;
 *   <li>at most {@link #MAX_NUMERALS} numerals, and a tweak of at most {@link #MAX_TWEAK_BYTES}.
 * </ul>
 *
 * <p>FF1 is deterministic and unauthenticated: equal inputs under one key and tweak give equal
 * outputs, and any string of the domain decrypts to something. An instance is meant to live as long
 * as its key version ({@link Ff1Key}) and may be shared: BouncyCastle's engine keeps the tweak of
 * the call it was set up for, so it is not thread-safe, and each call borrows one from a small pool
 * of engines whose AES key schedule was computed once ({@link #MAX_IDLE_ENGINES} kept idle).
 * Setting an engine up for a call then costs no key schedule, and the radix's conversion tables
 * (BouncyCastle precomputes big-integer powers of the radix) are computed once per radix, not per
 * value. {@link #destroy} wipes the key and drops every engine.
 */
public final class Ff1 {
  /** The smallest domain (radix to the power of the length) FF1 accepts. */
  public static final long MIN_DOMAIN = 1_000_000L;

  /** The largest radix FF1 is specified for. */
  public static final int MAX_RADIX = 1 << 16;

  /**
   * The most numerals one value may have: longer than any column FF1 is meant for (a 19-digit card
   * number, a 34-character IBAN), short enough that one call's cost stays small (FF1's cost grows
   * with the square of the length through its big-integer arithmetic).
   */
  public static final int MAX_NUMERALS = 256;

  /** The longest tweak accepted. */
  public static final int MAX_TWEAK_BYTES = 256;

  /**
   * Engines kept idle per key version: as many as calls that use one version at once on a busy
   * server (its threads), beyond which a returned engine is dropped rather than kept.
   */
  static final int MAX_IDLE_ENGINES = 8;

  /** Radixes whose conversion tables are kept; formats name few, and a key's format is fixed. */
  private static final int MAX_CACHED_RADIXES = 64;

  private static final Map<Integer, RadixConverter> CONVERTERS = new ConcurrentHashMap<>();

  /** The only copy of the key this instance keeps: BouncyCastle's, wiped by {@link #destroy}. */
  private final KeyParameter key;

  private final Queue<Engine> idle = new ConcurrentLinkedQueue<>();
  private final AtomicInteger idleCount = new AtomicInteger();
  private volatile boolean destroyed;

  private Ff1(KeyParameter key) {
    this.key = key;
  }

  /** FF1 under {@code key}, 16, 24 or 32 bytes (AES-128, -192 or -256); the array is copied. */
  public static Ff1 withKey(byte[] key) {
    if (key.length != 16 && key.length != 24 && key.length != 32) {
      throw new IllegalArgumentException(
          "an FF1 key is 16, 24 or 32 bytes (AES-128, -192 or -256), not " + key.length);
    }
    // KeyParameter copies the array.
    return new Ff1(new KeyParameter(key));
  }

  /** The key's size in bits: 128, 192 or 256. */
  public int keyBits() {
    return key.getKeyLength() * 8;
  }

  /**
   * Overwrites this instance's copy of the key and drops its engines (an engine in use is dropped
   * when its call returns it); it must not be used afterwards.
   */
  public void destroy() {
    destroyed = true;
    Arrays.fill(key.getKey(), (byte) 0);
    dropIdle();
  }

  /** Whether {@link #destroy} was called. */
  public boolean isDestroyed() {
    return destroyed;
  }

  /** An engine set up with this key, idle or new. */
  private Engine borrow() {
    if (destroyed) {
      throw new IllegalStateException("this FF1 key was destroyed");
    }
    Engine engine = idle.poll();
    if (engine != null) {
      idleCount.decrementAndGet();
      return engine;
    }
    return new Engine(key);
  }

  /** Keeps {@code engine} for the next call, unless enough are idle or the key was destroyed. */
  private void release(Engine engine) {
    if (destroyed) {
      return;
    }
    if (idleCount.incrementAndGet() > MAX_IDLE_ENGINES) {
      idleCount.decrementAndGet();
      return;
    }
    idle.offer(engine);
    if (destroyed) {
      // Destroyed while this engine was in use: it must not stay behind.
      dropIdle();
    }
  }

  private void dropIdle() {
    while (idle.poll() != null) {
      idleCount.decrementAndGet();
    }
  }

  /** BouncyCastle's conversion tables for {@code radix}, computed once per radix. */
  private static RadixConverter converter(int radix) {
    RadixConverter converter = CONVERTERS.get(radix);
    if (converter != null) {
      return converter;
    }
    converter = new RadixConverter(radix);
    if (CONVERTERS.size() < MAX_CACHED_RADIXES) {
      CONVERTERS.putIfAbsent(radix, converter);
    }
    return converter;
  }

  /** Encrypts {@code numerals} (each in [0, radix)) under {@code tweak}. */
  public int[] encrypt(int radix, byte[] tweak, int[] numerals) {
    return run(true, radix, tweak, numerals);
  }

  /** Decrypts {@code numerals} (each in [0, radix)) under {@code tweak}. */
  public int[] decrypt(int radix, byte[] tweak, int[] numerals) {
    return run(false, radix, tweak, numerals);
  }

  /**
   * Checks that strings of {@code length} numerals over {@code radix} make a domain FF1 accepts,
   * and says what is wrong in words a caller can act on.
   */
  public static void checkDomain(int radix, int length) {
    if (radix < 2 || radix > MAX_RADIX) {
      throw new InvalidArgumentException(
          "an FF1 alphabet has 2 to " + MAX_RADIX + " characters, not " + radix);
    }
    if (length > MAX_NUMERALS) {
      throw new InvalidArgumentException(
          "an FF1 value has at most " + MAX_NUMERALS + " characters, not " + length);
    }
    if (length < 2 || domainBelowMinimum(radix, length)) {
      throw new InvalidArgumentException(
          "too short for FF1: "
              + length
              + " characters over an alphabet of "
              + radix
              + " make fewer than "
              + MIN_DOMAIN
              + " values, which FF1 does not protect (NIST SP 800-38G Rev. 1)");
    }
  }

  /** The fewest numerals over {@code radix} that make a domain FF1 accepts. */
  public static int minLength(int radix) {
    int length = 2;
    while (domainBelowMinimum(radix, length)) {
      length++;
    }
    return length;
  }

  private static boolean domainBelowMinimum(int radix, int length) {
    return BigInteger.valueOf(radix).pow(length).compareTo(BigInteger.valueOf(MIN_DOMAIN)) < 0;
  }

  private int[] run(boolean encrypt, int radix, byte[] tweak, int[] numerals) {
    try (Steps steps = steps(encrypt, radix, tweak, numerals.length)) {
      return steps.apply(numerals);
    }
  }

  /**
   * FF1 in one direction under one radix and tweak, for strings of {@code length} numerals one
   * after another (the steps of a cycle walk), the engine and its key schedule set up once. The
   * limits are checked here, before any work.
   */
  public Steps steps(boolean encrypt, int radix, byte[] tweak, int length) {
    checkDomain(radix, length);
    if (tweak.length > MAX_TWEAK_BYTES) {
      throw new InvalidArgumentException(
          "an FF1 tweak has at most " + MAX_TWEAK_BYTES + " bytes, not " + tweak.length);
    }
    return new Steps(encrypt, radix, tweak, length);
  }

  /**
   * An FF1 engine of this key set up for one direction, radix, tweak and length, borrowed from the
   * pool until {@link #close}, which wipes its buffers and returns the engine. Not thread-safe.
   */
  public final class Steps implements AutoCloseable {
    private final int radix;
    private final boolean wide;
    private final byte[] in;
    private final byte[] out;
    private final Engine engine;
    private boolean closed;

    private Steps(boolean encrypt, int radix, byte[] tweak, int length) {
      this.radix = radix;
      this.wide = radix > 256;
      this.in = new byte[wide ? 2 * length : length];
      this.out = new byte[in.length];
      this.engine = borrow();
      try {
        engine.ff1.init(encrypt, new FPEParameters(key, converter(radix), tweak, false));
      } catch (RuntimeException e) {
        close();
        throw new CryptoProviderException("FF1", e);
      }
    }

    /** FF1 (or its inverse) of {@code numerals}, each in [0, radix), of the length set up. */
    public int[] apply(int[] numerals) {
      if ((wide ? 2 * numerals.length : numerals.length) != in.length) {
        throw new IllegalArgumentException("these steps take strings of one length");
      }
      for (int numeral : numerals) {
        if (numeral < 0 || numeral >= radix) {
          throw new IllegalArgumentException("a numeral is outside [0, " + radix + ")");
        }
      }
      if (wide) {
        toWide(numerals, in);
      } else {
        toNarrow(numerals, in);
      }
      try {
        engine.ff1.processBlock(in, 0, in.length, out, 0);
      } catch (RuntimeException e) {
        throw new CryptoProviderException("FF1", e);
      }
      return wide ? fromWide(out) : fromNarrow(out);
    }

    @Override
    public void close() {
      Arrays.fill(in, (byte) 0);
      Arrays.fill(out, (byte) 0);
      if (!closed) {
        closed = true;
        release(engine);
      }
    }
  }

  /**
   * BouncyCastle's FF1 engine over an AES engine whose key schedule was computed once, when this
   * was made: FF1 initialises its block cipher on every {@code init}, with the same key each time,
   * which {@link ScheduledAes} ignores.
   */
  private static final class Engine {
    final FPEFF1Engine ff1;

    Engine(KeyParameter key) {
      this.ff1 = new FPEFF1Engine(new ScheduledAes(key));
    }
  }

  /**
   * AES for FF1, keyed once: FF1 only ever encrypts with its block cipher (decryption runs the
   * Feistel rounds backwards, still encrypting), under the one key it was made with, so {@code
   * init} leaves the schedule as it is.
   */
  private static final class ScheduledAes implements BlockCipher {
    private final BlockCipher aes = AESEngine.newInstance();

    ScheduledAes(KeyParameter key) {
      aes.init(/* forEncryption= */ true, key);
    }

    @Override
    public void init(boolean forEncryption, CipherParameters parameters) {
      if (!forEncryption) {
        throw new IllegalStateException("FF1 uses AES only to encrypt");
      }
    }

    @Override
    public String getAlgorithmName() {
      return aes.getAlgorithmName();
    }

    @Override
    public int getBlockSize() {
      return aes.getBlockSize();
    }

    @Override
    public int processBlock(byte[] in, int inOff, byte[] out, int outOff) {
      return aes.processBlock(in, inOff, out, outOff);
    }

    @Override
    public void reset() {
      aes.reset();
    }
  }

  private static void toNarrow(int[] numerals, byte[] bytes) {
    for (int i = 0; i < numerals.length; i++) {
      bytes[i] = (byte) numerals[i];
    }
  }

  private static int[] fromNarrow(byte[] bytes) {
    int[] numerals = new int[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      numerals[i] = bytes[i] & 0xff;
    }
    return numerals;
  }

  /** BouncyCastle reads a radix above 256 as one big-endian 16-bit numeral per two bytes. */
  private static void toWide(int[] numerals, byte[] bytes) {
    for (int i = 0; i < numerals.length; i++) {
      bytes[2 * i] = (byte) (numerals[i] >>> 8);
      bytes[2 * i + 1] = (byte) numerals[i];
    }
  }

  private static int[] fromWide(byte[] bytes) {
    int[] numerals = new int[bytes.length / 2];
    for (int i = 0; i < numerals.length; i++) {
      numerals[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
    }
    return numerals;
  }
}
