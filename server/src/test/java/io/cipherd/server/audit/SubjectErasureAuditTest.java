package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.ErasureReceipt;
import io.cipherd.api.v1.HashAuditValueRequest;
import io.cipherd.api.v1.SubjectServiceGrpc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An erasure's receipt names its record in the trail: the record at the receipt's seq is the
 * erasure, its line hashes to the receipt's record hash, and it names the subject by the audit
 * key's hash (HashAuditValue's), never by its id.
 */
class SubjectErasureAuditTest {
  @TempDir Path dir;

  @Test
  void theReceipt_isTheErasuresRecordInTheTrail() throws Exception {
    Path log = dir.resolve("audit.log");
    ErasureReceipt receipt;
    String expectedHash;
    try (AuditServer cipherd =
        new AuditServer(new AuditConfig(log, false, Duration.ofMillis(50), 1 << 20), null)) {
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("users").build());
      cipherd.crypto.encrypt(
          EncryptRequest.newBuilder()
              .setKeyName("users")
              .setSubject("user-8812")
              .setPlaintext(ByteString.copyFromUtf8("ada@example.com"))
              .build());
      receipt =
          SubjectServiceGrpc.newBlockingStub(cipherd.channel)
              .eraseSubject(
                  EraseSubjectRequest.newBuilder()
                      .setKeyName("users")
                      .setSubject("user-8812")
                      .build())
              .getErasure()
              .getReceipt();
      expectedHash =
          cipherd
              .audit
              .hashAuditValue(
                  HashAuditValueRequest.newBuilder()
                      .setValue(ByteString.copyFromUtf8("user-8812"))
                      .build())
              .getHash();
    }

    assertThat(receipt.getKeyName()).isEqualTo("users");
    assertThat(receipt.getSubjectHash()).isEqualTo(expectedHash);
    assertThat(receipt.getTrail()).isNotEmpty();
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    String line =
        lines.stream()
            .filter(
                l ->
                    JsonParser.parseString(l).getAsJsonObject().get("seq").getAsLong()
                        == receipt.getAuditSeq())
            .findFirst()
            .orElseThrow();
    JsonObject record = JsonParser.parseString(line).getAsJsonObject();
    assertThat(record.get("type").getAsString()).isEqualTo("erasure");
    assertThat(record.get("action").getAsString()).isEqualTo("EraseSubject");
    assertThat(record.get("key").getAsString()).isEqualTo("users");
    assertThat(record.get("subject_hash").getAsString()).isEqualTo(expectedHash);
    assertThat(record.get("outcome").getAsString()).isEqualTo("ERASED");
    assertThat(AuditChain.hash(line.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(receipt.getRecordHash());
    assertThat(String.join("\n", lines)).doesNotContain("user-8812");
  }
}
