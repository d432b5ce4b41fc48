package io.cipherd.server.crypto.fpe;

import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.errors.InvalidArgumentException;
import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.fpe.FPEFF1Engine;
import org.bouncycastle.crypto.params.FPEParameters;
import org.bouncycastle.crypto.params.KeyParameter;

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
 * outputs, and any string of the domain decrypts to something. An instance is immutable (until
 * {@link #destroy}) and may be shared; every call runs on an engine of its own.
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

  private final byte[] key;

  private Ff1(byte[] key) {
    this.key = key;
  }

  /** FF1 under {@code key}, 16, 24 or 32 bytes (AES-128, -192 or -256); the array is copied. */
  public static Ff1 withKey(byte[] key) {
    if (key.length != 16 && key.length != 24 && key.length != 32) {
      throw new IllegalArgumentException(
          "an FF1 key is 16, 24 or 32 bytes (AES-128, -192 or -256), not " + key.length);
    }
    return new Ff1(key.clone());
  }

  /** The key's size in bits: 128, 192 or 256. */
  public int keyBits() {
    return key.length * 8;
  }

  /** Overwrites this instance's copy of the key; it must not be used afterwards. */
  public void destroy() {
    Arrays.fill(key, (byte) 0);
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
   * An FF1 engine initialised for one direction, radix, tweak and length. Not thread-safe; {@link
   * #close} wipes its buffers and its copy of the key.
   */
  public final class Steps implements AutoCloseable {
    private final int radix;
    private final boolean wide;
    private final byte[] in;
    private final byte[] out;
    private final KeyParameter keyParameter;
    private final FPEFF1Engine engine;

    private Steps(boolean encrypt, int radix, byte[] tweak, int length) {
      this.radix = radix;
      this.wide = radix > 256;
      this.in = new byte[wide ? 2 * length : length];
      this.out = new byte[in.length];
      this.keyParameter = new KeyParameter(key);
      this.engine = new FPEFF1Engine(AESEngine.newInstance());
      try {
        engine.init(encrypt, new FPEParameters(keyParameter, radix, tweak));
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
        engine.processBlock(in, 0, in.length, out, 0);
      } catch (RuntimeException e) {
        throw new CryptoProviderException("FF1", e);
      }
      return wide ? fromWide(out) : fromNarrow(out);
    }

    @Override
    public void close() {
      Arrays.fill(in, (byte) 0);
      Arrays.fill(out, (byte) 0);
      Arrays.fill(keyParameter.getKey(), (byte) 0);
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
