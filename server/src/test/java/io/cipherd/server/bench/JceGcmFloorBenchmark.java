package io.cipherd.server.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the JDK's own AES-GCM costs per operation, with nothing of ours around it: one Cipher held
 * by the thread, the same key every time, the IV, plaintext and output arrays preallocated, so
 * {@code -prof gc} shows only the provider's allocation per init + doFinal. That is the floor a
 * JCE-based encrypt cannot go below; everything above it in the server is ours or the stack's.
 *
 * <p>{@code make bench BENCH_ARGS='JceGcmFloorBenchmark -prof gc'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class JceGcmFloorBenchmark {
  @Param({"100"})
  public int payloadSize;

  SecretKey key;
  SecretKey otherKey;
  byte[] header;
  byte[] plaintext;
  byte[] iv = new byte[12];
  byte[] sealed;
  byte[] opened;
  byte[] nonce = new byte[12];
  Cipher cipher;
  SecureRandom drbg;

  @Setup
  public void setUp() throws GeneralSecurityException {
    SecureRandom random = new SecureRandom();
    byte[] k = new byte[32];
    random.nextBytes(k);
    key = new SecretKeySpec(k, "AES");
    random.nextBytes(k);
    otherKey = new SecretKeySpec(k, "AES");
    header = "<bench/v1:gcm>".getBytes(StandardCharsets.US_ASCII);
    plaintext = new byte[payloadSize];
    random.nextBytes(plaintext);
    sealed = new byte[payloadSize + 16];
    opened = new byte[payloadSize];
    cipher = Cipher.getInstance("AES/GCM/NoPadding");
    drbg = SecureRandom.getInstance("DRBG");
    // A distinct IV per op: GCM refuses to encrypt twice with the same key and IV.
    random.nextBytes(iv);
    cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
    cipher.updateAAD(header);
    cipher.doFinal(plaintext, 0, plaintext.length, sealed, 0);
  }

  /** Encrypt: init (same key as last time), header as AAD, doFinal into a preallocated array. */
  @Benchmark
  public int encrypt() throws GeneralSecurityException {
    iv[0]++;
    if (iv[0] == 0) {
      iv[1]++;
    }
    cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
    cipher.updateAAD(header);
    return cipher.doFinal(plaintext, 0, plaintext.length, sealed, 0);
  }

  /** The same without associated data: what the provider's AAD buffering adds. */
  @Benchmark
  public int encryptNoAad() throws GeneralSecurityException {
    iv[0]++;
    if (iv[0] == 0) {
      iv[1]++;
    }
    cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
    return cipher.doFinal(plaintext, 0, plaintext.length, sealed, 0);
  }

  /** Decrypt of a fixed ciphertext into a preallocated array. */
  @Benchmark
  public int decrypt() throws GeneralSecurityException {
    cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, iv));
    cipher.updateAAD(header);
    return cipher.doFinal(sealed, 0, sealed.length, opened, 0);
  }

  /** Encrypt alternating between two keys on one Cipher: the key schedule is rebuilt every init. */
  @Benchmark
  public int encryptAlternatingKeys() throws GeneralSecurityException {
    iv[0]++;
    if (iv[0] == 0) {
      iv[1]++;
    }
    cipher.init(
        Cipher.ENCRYPT_MODE, (iv[0] & 1) == 0 ? key : otherKey, new GCMParameterSpec(128, iv));
    cipher.updateAAD(header);
    return cipher.doFinal(plaintext, 0, plaintext.length, sealed, 0);
  }

  /** One 12-byte nonce from the JDK's DRBG, as NonceSource draws it. */
  @Benchmark
  public byte[] drbgNonce() {
    drbg.nextBytes(nonce);
    return nonce;
  }
}
