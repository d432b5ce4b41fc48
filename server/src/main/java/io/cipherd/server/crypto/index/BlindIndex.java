package io.cipherd.server.crypto.index;

import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.errors.InvalidArgumentException;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * Blind indexes: HMAC-SHA-256 of a normalized value under an index key version, truncated
 * (proto/README.md, "Blind indexes"). A {@link Mac} costs about a microsecond to create and is not
 * thread-safe, so each thread keeps one and re-keys it per call. A keyed {@code Mac} holds its
 * key's inner and outer pads (the key XOR a constant: the key itself, to anyone who reads them), so
 * after each call the thread's {@code Mac} is re-keyed with {@link #BLANK}: an idle thread never
 * keeps an index key, which would outlive the version's destruction.
 */
public final class BlindIndex {
  /** The whole HMAC-SHA-256. */
  public static final int MAX_LENGTH = 32;

  /** Below 8 bytes unrelated values would share indexes too often (birthday bound 2³²). */
  public static final int MIN_LENGTH = 8;

  /**
   * Each thread's Mac, never given a key: each index is computed by a clone of it, which becomes
   * garbage after the call. Re-keying a kept Mac with a blank key was not enough: a heap dump once
   * found a thread's Mac still holding words of a real key's padded block, most likely in SHA-256's
   * message-schedule array, which the compression no longer writes once it runs as a JIT intrinsic.
   */
  private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(BlindIndex::newMac);

  private BlindIndex() {}

  /** The index length to use for a request's {@code lengthBytes}: 0 means the whole HMAC. */
  public static int length(int lengthBytes) {
    if (lengthBytes == 0) {
      return MAX_LENGTH;
    }
    if (lengthBytes < MIN_LENGTH || lengthBytes > MAX_LENGTH) {
      throw new InvalidArgumentException(
          "length_bytes must be "
              + MIN_LENGTH
              + " to "
              + MAX_LENGTH
              + " (0 means "
              + MAX_LENGTH
              + "), got "
              + lengthBytes);
    }
    return lengthBytes;
  }

  /** HMAC-SHA-256 of {@code normalized} under {@code key}, cut to {@code length} bytes. */
  public static byte[] compute(SecretKey key, byte[] normalized, int length) {
    try {
      Mac mac = (Mac) MACS.get().clone();
      mac.init(key);
      byte[] full = mac.doFinal(normalized);
      byte[] index = Arrays.copyOf(full, length);
      Arrays.fill(full, (byte) 0);
      return index;
    } catch (GeneralSecurityException | CloneNotSupportedException | RuntimeException e) {
      MACS.remove();
      throw new CryptoProviderException(KeyType.INDEX.keyAlgorithm(), e);
    }
  }

  private static Mac newMac() {
    try {
      return Mac.getInstance(KeyType.INDEX.keyAlgorithm());
    } catch (GeneralSecurityException e) {
      throw new CryptoProviderException(KeyType.INDEX.keyAlgorithm(), e);
    }
  }
}
