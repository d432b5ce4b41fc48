package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyTemplate;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With --audit-required and an audit file on a full file system (a real one: a 64 KiB tmpfs,
 * filled), calls fail UNAVAILABLE with AUDIT_UNAVAILABLE and are not served: a unary call gets no
 * ciphertext, a stream no item. Mounting needs root, which CI has; elsewhere the test is skipped.
 */
class AuditFailClosedTest {
  @TempDir Path dir;
  private Path mount;

  @AfterEach
  void unmount() throws Exception {
    if (mount != null) {
      run("umount", mount.toString());
    }
  }

  @Test
  void fullAuditDisk_failsCallsUnavailable_andServesNothing_untilSpaceReturns() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "mounting a tmpfs to fill needs root (CI runs as root)");
    Path tmpfs = Files.createDirectory(dir.resolve("audit"));
    run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tmpfs.toString());
    mount = tmpfs;
    Path filler = tmpfs.resolve("filler");
    try (AuditServer cipherd =
        new AuditServer(
            new AuditConfig(tmpfs.resolve("audit.log"), true, Duration.ofSeconds(1), 1 << 20),
            null)) {
      cipherd.services.admin().create("orders", KeyTemplate.of(CipherMode.GCM));
      assertThat(encrypt(cipherd).getCiphertext()).startsWith("<orders/v1:");

      fill(filler);
      // The log's last page may still hold a few records; once it is full, no call is served.
      StatusRuntimeException refused = null;
      for (int call = 0; call < 200 && refused == null; call++) {
        refused = catchThrowableOfType(StatusRuntimeException.class, () -> encrypt(cipherd));
      }
      assertThat(refused).as("a call refused once the disk is full").isNotNull();
      assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(reason(refused)).isEqualTo("AUDIT_UNAVAILABLE");
      assertThat(refused.getStatus().getDescription()).contains("--audit-required");

      StatusRuntimeException again =
          catchThrowableOfType(StatusRuntimeException.class, () -> encrypt(cipherd));
      assertThat(reason(again)).isEqualTo("AUDIT_UNAVAILABLE");

      List<EncryptStreamResponse> items = new CopyOnWriteArrayList<>();
      Throwable streamError = stream(cipherd, items);
      assertThat(streamError).isInstanceOf(StatusRuntimeException.class);
      assertThat(Status.fromThrowable(streamError).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(reason((StatusRuntimeException) streamError)).isEqualTo("AUDIT_UNAVAILABLE");
      assertThat(items).isEmpty();
      assertThat(
              cipherd
                  .services
                  .metrics()
                  .registry()
                  .counter("cipherd.audit.records", "outcome", "failed")
                  .count())
          .isGreaterThanOrEqualTo(2);

      // Space again: the trail reopens its file, and calls are served again.
      Files.delete(filler);
      String served = null;
      for (int attempt = 0; attempt < 5 && served == null; attempt++) {
        try {
          served = encrypt(cipherd).getCiphertext();
        } catch (StatusRuntimeException stillRefused) {
          assertThat(reason(stillRefused)).isEqualTo("AUDIT_UNAVAILABLE");
        }
      }
      assertThat(served).startsWith("<orders/v1:");
    }
  }

  private static EncryptResponse encrypt(AuditServer cipherd) {
    return cipherd.crypto.encrypt(
        EncryptRequest.newBuilder()
            .setKeyName("orders")
            .setPlaintext(AuditedCallsTest.utf8("card 4111"))
            .build());
  }

  private static Throwable stream(AuditServer cipherd, List<EncryptStreamResponse> items)
      throws Exception {
    CompletableFuture<Throwable> done = new CompletableFuture<>();
    StreamObserver<EncryptStreamRequest> requests =
        cipherd.cryptoAsync.encryptStream(
            new StreamObserver<>() {
              @Override
              public void onNext(EncryptStreamResponse value) {
                items.add(value);
              }

              @Override
              public void onError(Throwable t) {
                done.complete(t);
              }

              @Override
              public void onCompleted() {
                done.complete(null);
              }
            });
    for (int i = 0; i < 3; i++) {
      requests.onNext(
          EncryptStreamRequest.newBuilder()
              .setKeyName("orders")
              .setPlaintext(AuditedCallsTest.utf8("item " + i))
              .build());
    }
    requests.onCompleted();
    return done.get(10, TimeUnit.SECONDS);
  }

  private static String reason(StatusRuntimeException e) {
    return StatusProto.fromThrowable(e).getDetailsList().stream()
        .filter(any -> any.is(ErrorInfo.class))
        .map(
            any -> {
              try {
                return any.unpack(ErrorInfo.class).getReason();
              } catch (IOException notErrorInfo) {
                return "";
              }
            })
        .findFirst()
        .orElse("");
  }

  /** Writes to {@code filler} until the file system is full. */
  private static void fill(Path filler) {
    byte[] block = new byte[4096];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(block);
        out.flush();
      }
    } catch (IOException full) {
      // No space left: what we wanted.
    }
  }

  private static void run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }
}
