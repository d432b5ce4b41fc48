package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.server.subjects.RefusingSubjectStore;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose replicas share no subject store (keys in Vault, no --subject-store-url) refuses
 * subject-bound calls with FAILED_PRECONDITION and says what to configure, and serves every other
 * call.
 */
class UnsharedSubjectStoreApiTest {
  private static final String WHY =
      "needs a subject store every replica shares: --subject-store-url";

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd =
        InProcessCipherd.start(
            dataDir, builder -> builder.subjectStore(new RefusingSubjectStore(WHY)));
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("users").setMode(Mode.MODE_GCM).build());
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void aSubjectBoundEncrypt_isRefused_sayingWhatToConfigure() {
    StatusRuntimeException e =
        SubjectBoundApiTest.failure(
            Status.Code.FAILED_PRECONDITION, () -> cipherd.crypto.encrypt(request("user-1")));

    assertThat(e.getStatus().getDescription()).contains("--subject-store-url");
    assertThat(e.getStatus().getDescription()).doesNotContain("user-1");
  }

  @Test
  void everyOtherCall_isServed() {
    String ciphertext = cipherd.crypto.encrypt(request("")).getCiphertext();

    assertThat(ciphertext).startsWith("<users/v1:gcm>");
  }

  private static EncryptRequest request(String subject) {
    return EncryptRequest.newBuilder()
        .setKeyName("users")
        .setSubject(subject)
        .setPlaintext(ByteString.copyFromUtf8("ada@example.com"))
        .build();
  }
}
