package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.server.ServerProcess;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar with its keys in a real Vault and no {@code --subject-store-url}, as Main wires it:
 * subject-bound encryption and erasure answer FAILED_PRECONDITION {@code
 * SUBJECT_STORE_NOT_CONFIGURED}, saying what to set, and every other call is served.
 */
@Tag("vault")
@Timeout(120)
class UnsharedSubjectStoreVaultTest {
  @TempDir Path dir;
  private VaultDevServer vault;
  private ServerProcess server;

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    Path token = dir.resolve("vault-token");
    Files.writeString(token, vault.rootToken());
    server =
        ServerProcess.start(
            List.of("-Xmx192m", "-XX:+UseSerialGC"),
            List.of(
                "--host",
                "127.0.0.1",
                "--keystore",
                "vault",
                "--vault-address",
                vault.address(),
                "--vault-prefix",
                "cipherd/unshared-subjects",
                "--vault-auth",
                "token",
                "--vault-token-file",
                token.toString(),
                "--data-dir",
                dir.resolve("data").toString()),
            Map.of(),
            dir.resolve("server.log"));
    server
        .admin()
        .createKey(
            CreateKeyRequest.newBuilder().setKeyName("users").setMode(Mode.MODE_GCM).build());
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {server, vault}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void subjectCalls_areRefusedAsNotConfigured_otherCallsServed_noFileOpened() {
    assertNotConfigured(() -> server.crypto().encrypt(encrypt("user-1")));
    assertNotConfigured(
        () ->
            server
                .subjects()
                .eraseSubject(
                    EraseSubjectRequest.newBuilder()
                        .setKeyName("users")
                        .setSubject("user-1")
                        .build()));

    String ciphertext = server.crypto().encrypt(encrypt("")).getCiphertext();
    assertThat(
            server
                .crypto()
                .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
                .getPlaintext()
                .toStringUtf8())
        .isEqualTo("ada@example.com");
    assertThat(dir.resolve("data").resolve("subjects.db")).doesNotExist();
  }

  private static void assertNotConfigured(ThrowingCallable call) {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call);
    assertThat(e).as("the subject call is refused").isNotNull();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(ServerProcess.reason(e)).isEqualTo("SUBJECT_STORE_NOT_CONFIGURED");
    assertThat(e.getStatus().getDescription()).contains("--subject-store-url");
    assertThat(e.getStatus().getDescription()).doesNotContain("user-1");
  }

  private static EncryptRequest encrypt(String subject) {
    return EncryptRequest.newBuilder()
        .setKeyName("users")
        .setSubject(subject)
        .setPlaintext(ByteString.copyFromUtf8("ada@example.com"))
        .build();
  }
}
