package io.cipherd.client;

import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** proto/testdata/audit: every case's verdict, and a live trail checked with its server. */
class AuditVectorsTest {
  @TestFactory
  Stream<DynamicTest> sharedVectors() throws Exception {
    Path dir = Testdata.dir().resolve("audit");
    JsonObject vectors = Testdata.json("audit/audit.json");
    AuditVerifier.CheckpointCheck check =
        AuditVerifier.checkpointsUnder(
            HexFormat.of().parseHex(vectors.get("audit_key_hex").getAsString()));
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonElement element : vectors.getAsJsonArray("cases")) {
      JsonObject c = element.getAsJsonObject();
      tests.add(
          DynamicTest.dynamicTest(
              c.get("name").getAsString(),
              () -> {
                List<Path> files = new ArrayList<>();
                c.getAsJsonArray("files").forEach(f -> files.add(dir.resolve(f.getAsString())));
                AuditHead head =
                    c.has("head") ? AuditHead.read(dir.resolve(c.get("head").getAsString())) : null;
                AuditVerdict verdict = AuditVerifier.verify(files, check, head);
                assertEquals(
                    c.get("intact").getAsBoolean(), verdict.intact(), verdict.problem().orElse(""));
                assertEquals(head != null, verdict.completenessChecked());
                if (c.has("first_bad_line")) {
                  String problem = verdict.problem().orElseThrow();
                  assertTrue(
                      problem.startsWith(c.get("first_bad_line").getAsString() + ":"), problem);
                }
                for (String count : List.of("calls", "checkpoints", "torn")) {
                  if (c.has(count)) {
                    int expected = c.get(count).getAsInt();
                    int actual =
                        switch (count) {
                          case "calls" -> verdict.calls();
                          case "checkpoints" -> verdict.checkpoints();
                          default -> verdict.torn();
                        };
                    assertEquals(expected, actual, count);
                  }
                }
              }));
    }
    return tests.stream();
  }

  @Test
  void aLiveTrailVerifiesWithItsServerAndAnEditedCopyDoesNot(@TempDir Path tmp) throws Exception {
    try (CipherdClient client = SharedServer.client()) {
      client.encrypt("demo", utf8("audited"), utf8("ctx"));
      String hash = client.audit().hashValue(utf8("ctx"));
      assertTrue(hash.matches("hmac-sha256:[0-9a-f]{64}"), hash);
      Thread.sleep(300); // a checkpoint after the call (interval 50 ms)
      Path log = SharedServer.auditLog();
      AuditVerdict verdict = AuditVerifier.verifyWithServer(client.audit(), List.of(log));
      assertTrue(verdict.intact(), verdict.problem().orElse(""));
      assertTrue(verdict.macsChecked());
      assertTrue(verdict.checkpoints() > 0);
      assertTrue(Files.readString(log).contains(hash));
      // A copy whose checkpoint MACs were made up fails with the server.
      List<String> lines = new ArrayList<>(Files.readAllLines(log));
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains("\"type\":\"checkpoint\"")) {
          lines.set(i, lines.get(i).replaceAll("hmac-sha256:[0-9a-f]{8}", "hmac-sha256:00000000"));
          break;
        }
      }
      Path forged = tmp.resolve("audit.log");
      Files.write(forged, lines);
      AuditVerdict forgedVerdict = AuditVerifier.verifyWithServer(client.audit(), List.of(forged));
      assertFalse(forgedVerdict.intact());
      assertTrue(forgedVerdict.problem().orElseThrow().contains("fails its MAC"));
    }
  }
}
