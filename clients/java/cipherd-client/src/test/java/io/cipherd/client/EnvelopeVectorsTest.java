package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** proto/testdata/envelopes.json through the client's own parser. */
class EnvelopeVectorsTest {
  @TestFactory
  Stream<DynamicTest> validParseAndFormatBackInvalidAreRejectedWithTheirDefect() throws Exception {
    JsonObject vectors = Testdata.json("envelopes.json");
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonElement element : vectors.getAsJsonArray("valid")) {
      JsonObject c = element.getAsJsonObject();
      tests.add(
          DynamicTest.dynamicTest(
              "valid " + c.get("name").getAsString(),
              () -> {
                Envelope envelope = Envelope.parse(c.get("ciphertext").getAsString());
                assertEquals(c.get("key_name").getAsString(), envelope.keyName());
                assertEquals(c.get("key_version").getAsInt(), envelope.keyVersion());
                assertEquals(c.get("mode").getAsString(), envelope.mode().headerName());
                assertEquals(
                    c.has("subject_bound") && c.get("subject_bound").getAsBoolean(),
                    envelope.subjectBound());
                assertArrayEquals(
                    HexFormat.of().parseHex(c.get("payload_hex").getAsString()),
                    envelope.payload());
                assertEquals(c.get("ciphertext").getAsString(), envelope.format());
              }));
    }
    for (JsonElement element : vectors.getAsJsonArray("invalid")) {
      JsonObject c = element.getAsJsonObject();
      tests.add(
          DynamicTest.dynamicTest(
              "invalid " + c.get("name").getAsString(),
              () -> {
                InvalidCiphertextException e =
                    assertThrows(
                        InvalidCiphertextException.class,
                        () -> Envelope.parse(c.get("ciphertext").getAsString()));
                assertEquals(c.get("reason").getAsString(), e.defect());
              }));
    }
    return tests.stream();
  }
}
