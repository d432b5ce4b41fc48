package io.cipherd.server.crypto.fpe;

import io.cipherd.server.errors.InvalidArgumentException;
import java.math.BigInteger;

/**
 * The domain of a value's encrypted characters (radix<sup>length</sup> strings) and how FF1 covers
 * it. At {@link Ff1#MIN_DOMAIN} values or more, plain FF1. Below, refused unless the key's format
 * accepts small domains, and then only down to {@link #SMALL_DOMAIN_FLOOR}: such a value is
 * encrypted by cycle-walking FF1 over the shortest length whose domain FF1 accepts, the value
 * left-padded with zero numerals and encrypted again until the padding comes back zero. That is a
 * permutation of the small domain (each value's cycle under FF1 returns to it), deterministic, and
 * decrypted the same way with FF1's inverse. BouncyCastle refuses domains below a million itself,
 * which is why the small domain is walked rather than handed to FF1 directly.
 */
public final class FpeDomain {
  /** The fewest values a small domain may have, even with accept_small_domain. */
  public static final long SMALL_DOMAIN_FLOOR = 10_000L;

  /**
   * The walk's cap, in multiples of its expected length (the ratio of the two domains): the chance
   * that a value needs more is below e<sup>-64</sup>, so reaching it means a fault, not bad luck.
   */
  static final long STEP_CAP_FACTOR = 64;

  private FpeDomain() {}

  /** Encrypts {@code numerals} over {@code radix}, walking a small domain if {@code small}. */
  public static int[] encrypt(
      Ff1 ff1, int radix, byte[] tweak, int[] numerals, boolean acceptSmallDomain) {
    return run(true, ff1, radix, tweak, numerals, acceptSmallDomain);
  }

  /** Decrypts what {@link #encrypt} made. */
  public static int[] decrypt(
      Ff1 ff1, int radix, byte[] tweak, int[] numerals, boolean acceptSmallDomain) {
    return run(false, ff1, radix, tweak, numerals, acceptSmallDomain);
  }

  /**
   * The length FF1 runs over for {@code length} numerals over {@code radix}: {@code length} itself,
   * or the longer one a small domain is walked in; refuses, in words a caller can act on, a domain
   * that is too small or a value that is too long. Costs no FF1 call.
   */
  public static int ff1Length(int radix, int length, boolean acceptSmallDomain) {
    if (length > Ff1.MAX_NUMERALS) {
      throw new InvalidArgumentException(
          "an FF1 value has at most " + Ff1.MAX_NUMERALS + " encrypted characters, not " + length);
    }
    BigInteger domain = BigInteger.valueOf(radix).pow(length);
    if (domain.compareTo(BigInteger.valueOf(Ff1.MIN_DOMAIN)) >= 0) {
      return length;
    }
    String values =
        length
            + " encrypted characters over an alphabet of "
            + radix
            + " make "
            + domain
            + " values, below FF1's floor of "
            + Ff1.MIN_DOMAIN
            + " (NIST SP 800-38G Rev. 1)";
    if (domain.compareTo(BigInteger.valueOf(SMALL_DOMAIN_FLOOR)) < 0) {
      throw new InvalidArgumentException(
          "too short for FF1: "
              + values
              + " and below "
              + SMALL_DOMAIN_FLOOR
              + ", which no key accepts");
    }
    if (!acceptSmallDomain) {
      throw new InvalidArgumentException(
          "too short for FF1: "
              + values
              + "; only a key whose format sets accept_small_domain takes them");
    }
    return Ff1.minLength(radix);
  }

  private static int[] run(
      boolean encrypt,
      Ff1 ff1,
      int radix,
      byte[] tweak,
      int[] numerals,
      boolean acceptSmallDomain) {
    int length = ff1Length(radix, numerals.length, acceptSmallDomain);
    if (length == numerals.length) {
      return encrypt ? ff1.encrypt(radix, tweak, numerals) : ff1.decrypt(radix, tweak, numerals);
    }
    long expected = BigInteger.valueOf(radix).pow(length - numerals.length).longValueExact();
    return walk(encrypt, ff1, radix, tweak, numerals, length, STEP_CAP_FACTOR * expected);
  }

  /**
   * Cycle-walks {@code numerals} in strings of {@code length}: FF1 (or its inverse) again and again
   * until the leading {@code length - numerals.length} numerals are zero, at most {@code maxSteps}
   * times.
   */
  static int[] walk(
      boolean encrypt,
      Ff1 ff1,
      int radix,
      byte[] tweak,
      int[] numerals,
      int length,
      long maxSteps) {
    int padding = length - numerals.length;
    int[] x = new int[length];
    System.arraycopy(numerals, 0, x, padding, numerals.length);
    try (Ff1.Steps steps = ff1.steps(encrypt, radix, tweak, length)) {
      for (long step = 0; step < maxSteps; step++) {
        x = steps.apply(x);
        if (leadingZeros(x, padding)) {
          int[] out = new int[numerals.length];
          System.arraycopy(x, padding, out, 0, numerals.length);
          return out;
        }
      }
    }
    throw new IllegalStateException(
        "cycle-walking FF1 took more than " + maxSteps + " steps, which FF1 never needs");
  }

  private static boolean leadingZeros(int[] x, int count) {
    for (int i = 0; i < count; i++) {
      if (x[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
