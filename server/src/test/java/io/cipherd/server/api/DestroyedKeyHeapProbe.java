package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.server.keys.SettableClock;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The server side of {@link DestroyedKeyHeapTest}, run in a JVM of its own with a small heap: a
 * cipherd in process imports one version per mode family from random bytes, uses it on every path
 * that prepares or caches its key (pooled JCE ciphers, Tink's AES-SIV, XAES-256-GCM's derived key,
 * the blind index's HMAC), then rotates, schedules the imported versions' destruction, lets it
 * become due and destroys them; it dumps its live heap while they are in use ({@code in-use.hprof})
 * and after the destruction ({@code destroyed.hprof}, and {@code destroyed-all.hprof} with the
 * unreachable objects not yet collected). The bytes go to {@code keys.bin} in the output folder,
 * for the test to search for; this JVM keeps no copy of its own.
 *
 * <p>Arguments: the output folder, then the data folder.
 */
public final class DestroyedKeyHeapProbe {
  /** The imported keys in the order {@code keys.bin} holds them: key name, mode, bytes. */
  public static final List<Map.Entry<String, Mode>> KEYS =
      List.of(
          Map.entry("gcm", Mode.MODE_GCM),
          Map.entry("chacha", Mode.MODE_CHACHA),
          Map.entry("cbc", Mode.MODE_CBC),
          Map.entry("siv", Mode.MODE_SIV),
          Map.entry("xgcm", Mode.MODE_XGCM),
          Map.entry("hmac", Mode.MODE_HMAC));

  public static int bytesOf(Mode mode) {
    return mode == Mode.MODE_SIV ? 64 : 32;
  }

  private DestroyedKeyHeapProbe() {}

  /** Items per DecryptBatch: within the server's default limit of 64. */
  private static final int BATCH = 32;

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    Path data = Path.of(args[1]);
    SettableClock clock = new SettableClock(Instant.parse("2026-11-24T09:00:00Z"));
    try (InProcessCipherd cipherd = InProcessCipherd.start(data, b -> b.clock(clock))) {
      importKeys(cipherd, out.resolve("keys.bin"));
      List<String> ciphertexts = new ArrayList<>();
      for (Map.Entry<String, Mode> key : KEYS) {
        if (key.getValue() != Mode.MODE_HMAC) {
          for (int i = 0; i < 20; i++) {
            ciphertexts.add(encrypt(cipherd, key.getKey(), 1, "row " + i));
          }
        }
        cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName(key.getKey()).build());
      }
      use(cipherd, ciphertexts);
      dump(out.resolve("in-use.hprof"), true);

      for (Map.Entry<String, Mode> key : KEYS) {
        cipherd.admin.scheduleKeyVersionDestruction(
            ScheduleKeyVersionDestructionRequest.newBuilder()
                .setKeyName(key.getKey())
                .addVersions(1)
                .setPendingWindow(Durations.fromDays(1))
                .build());
      }
      clock.advance(Duration.ofDays(1).plusMinutes(1));
      cipherd.services.maintainKeysNow();
      for (Map.Entry<String, Mode> key : KEYS) {
        KeyVersionState state =
            cipherd
                .admin
                .getKey(GetKeyRequest.newBuilder().setKeyName(key.getKey()).build())
                .getKey()
                .getVersions(0)
                .getState();
        if (state != KeyVersionState.KEY_VERSION_STATE_DESTROYED) {
          throw new IllegalStateException(key.getKey() + " v1 is " + state + ", not destroyed");
        }
      }
      // Version 2 of each key keeps serving, on the same threads and pooled ciphers.
      for (Map.Entry<String, Mode> key : KEYS) {
        if (key.getValue() != Mode.MODE_HMAC) {
          decrypt(cipherd, encrypt(cipherd, key.getKey(), 2, "after"));
        }
      }
      dump(out.resolve("destroyed-all.hprof"), false);
      dump(out.resolve("destroyed.hprof"), true);
    }
  }

  /** Imports one version of each key from fresh random bytes, written to {@code file} first. */
  private static void importKeys(InProcessCipherd cipherd, Path file) throws Exception {
    SecureRandom random = new SecureRandom();
    int total = KEYS.stream().mapToInt(k -> bytesOf(k.getValue())).sum();
    byte[] all = new byte[total];
    random.nextBytes(all);
    Files.write(file, all);
    int offset = 0;
    for (Map.Entry<String, Mode> key : KEYS) {
      int length = bytesOf(key.getValue());
      cipherd.admin.importKey(
          ImportKeyRequest.newBuilder()
              .setKeyName(key.getKey())
              .setMode(key.getValue())
              .setAllowUnauthenticated(key.getValue() == Mode.MODE_CBC)
              .setKeyMaterial(ByteString.copyFrom(all, offset, length))
              .build());
      offset += length;
    }
    Arrays.fill(all, (byte) 0);
  }

  /** Every path that prepares or caches version 1's key (unary and batch), from several threads. */
  private static void use(InProcessCipherd cipherd, List<String> ciphertexts) throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (String ciphertext : ciphertexts) {
                  decrypt(cipherd, ciphertext);
                }
                // A batch forgets the per-thread AES-SIV keys once, at its end (ThreadKeyScope).
                for (int from = 0; from < ciphertexts.size(); from += BATCH) {
                  DecryptBatchRequest.Builder batch = DecryptBatchRequest.newBuilder();
                  for (String ciphertext :
                      ciphertexts.subList(from, Math.min(from + BATCH, ciphertexts.size()))) {
                    batch.addItems(DecryptBatchItem.newBuilder().setCiphertext(ciphertext));
                  }
                  cipherd.crypto.decryptBatch(batch.build());
                }
                for (int i = 0; i < 20; i++) {
                  cipherd.crypto.computeIndex(
                      ComputeIndexRequest.newBuilder()
                          .setKeyName("hmac")
                          .setKeyVersion(1)
                          .setValue(ByteString.copyFromUtf8("alice@example.com " + i))
                          .build());
                }
              });
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private static String encrypt(InProcessCipherd cipherd, String key, int version, String text) {
    return cipherd
        .crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setKeyVersion(version)
                .setPlaintext(ByteString.copyFromUtf8(text))
                .build())
        .getCiphertext();
  }

  private static void decrypt(InProcessCipherd cipherd, String ciphertext) {
    cipherd.crypto.decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build());
  }

  private static void dump(Path file, boolean live) throws Exception {
    ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
        .dumpHeap(file.toString(), live);
  }
}
