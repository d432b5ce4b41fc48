package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormatPreservingServiceGrpc.FormatPreservingServiceBlockingStub;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.FpeFormat;
import io.cipherd.api.v1.FpeTemplate;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.MaskFormattedRequest;
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
 * the blind index's HMAC, FF1's copies for BouncyCastle), then rotates, schedules the imported
 * versions' destruction, lets it become due and destroys them; it dumps its live heap while they
 * are in use ({@code in-use.hprof}) and after the destruction ({@code destroyed.hprof}, and {@code
 * destroyed-all.hprof} with the unreachable objects not yet collected). The bytes go to {@code
 * keys.bin} in the output folder, for the test to search for; this JVM keeps no copy of its own.
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
          Map.entry("hmac", Mode.MODE_HMAC),
          Map.entry("ff1", Mode.MODE_FF1));

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
        if (makesCiphertexts(key.getValue())) {
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
        if (makesCiphertexts(key.getValue())) {
          decrypt(cipherd, encrypt(cipherd, key.getKey(), 2, "after"));
        }
      }
      formatted(cipherd, 2);
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
      ImportKeyRequest.Builder request =
          ImportKeyRequest.newBuilder()
              .setKeyName(key.getKey())
              .setMode(key.getValue())
              .setAllowUnauthenticated(key.getValue() == Mode.MODE_CBC)
              .setKeyMaterial(ByteString.copyFrom(all, offset, length));
      if (key.getValue() == Mode.MODE_FF1) {
        request.setFpeFormat(FpeFormat.newBuilder().setTemplate(FpeTemplate.FPE_TEMPLATE_DIGITS));
      }
      cipherd.admin.importKey(request.build());
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
                formatted(cipherd, 1);
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

  /** Whether keys of {@code mode} make ciphertexts (not index or format-preserving keys). */
  private static boolean makesCiphertexts(Mode mode) {
    return mode != Mode.MODE_HMAC && mode != Mode.MODE_FF1;
  }

  /**
   * Encrypts, decrypts and masks values with the ff1 key's {@code version} (the current one when
   * encrypting), unary and batch.
   */
  private static void formatted(InProcessCipherd cipherd, int version) {
    FormatPreservingServiceBlockingStub fpe =
        FormatPreservingServiceGrpc.newBlockingStub(cipherd.channel);
    DecryptFormattedBatchRequest.Builder batch =
        DecryptFormattedBatchRequest.newBuilder().setKeyName("ff1").setKeyVersion(version);
    for (int i = 0; i < 20; i++) {
      String value = String.format("%016d", 4_111_111_111_111_111L + i);
      String encrypted =
          fpe.encryptFormatted(
                  EncryptFormattedRequest.newBuilder().setKeyName("ff1").setValue(value).build())
              .getValue();
      if (version == 1) {
        batch.addItems(FormattedBatchItem.newBuilder().setValue(value));
      }
      fpe.decryptFormatted(
          DecryptFormattedRequest.newBuilder()
              .setKeyName("ff1")
              .setValue(encrypted)
              .setKeyVersion(version)
              .build());
      fpe.maskFormatted(
          MaskFormattedRequest.newBuilder()
              .setKeyName("ff1")
              .setValue(encrypted)
              .setKeyVersion(version)
              .build());
    }
    fpe.decryptFormattedBatch(batch.build());
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
