package io.cipherd.client;

import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** proto/testdata/datakey_files.json, and a file through the real server's data keys. */
class DataKeyFileVectorsTest {
  private static final HexFormat HEX = HexFormat.of();

  @TestFactory
  Stream<DynamicTest> vectors() throws Exception {
    JsonObject vectors = Testdata.json("datakey_files.json");
    byte[] dataKey = HEX.parseHex(vectors.get("data_key_hex").getAsString());
    String wrapped = vectors.get("wrapped_key").getAsString();
    byte[] prefix = HEX.parseHex(vectors.get("nonce_prefix_hex").getAsString());
    DataKeyFile.Unwrapper unwrapper = wrappedKey -> new DataKeyFile.Unwrapped(dataKey, "files", 1);
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonElement element : vectors.getAsJsonArray("valid")) {
      JsonObject c = element.getAsJsonObject();
      byte[] plaintext = HEX.parseHex(c.get("plaintext_hex").getAsString());
      byte[] file = HEX.parseHex(c.get("file_hex").getAsString());
      tests.add(
          DynamicTest.dynamicTest(
              "valid " + c.get("name").getAsString(),
              () -> {
                ByteArrayOutputStream sealed = new ByteArrayOutputStream();
                DataKeyFile.encrypt(
                    new DataKey(Optional.of(dataKey), wrapped, 1),
                    new ByteArrayInputStream(plaintext),
                    sealed,
                    c.get("chunk_size").getAsInt(),
                    prefix);
                assertArrayEquals(file, sealed.toByteArray());
                ByteArrayOutputStream opened = new ByteArrayOutputStream();
                FileResult result =
                    DataKeyFile.decrypt(new ByteArrayInputStream(file), opened, unwrapper);
                assertArrayEquals(plaintext, opened.toByteArray());
                assertEquals(plaintext.length, result.plaintextBytes());
              }));
    }
    JsonObject rewrapped = vectors.getAsJsonObject("rewrapped");
    byte[] expected =
        HEX.parseHex(
            vectors
                .getAsJsonArray("valid")
                .get(3)
                .getAsJsonObject()
                .get("plaintext_hex")
                .getAsString());
    tests.add(
        DynamicTest.dynamicTest(
            "rewrapped",
            () -> {
              ByteArrayOutputStream opened = new ByteArrayOutputStream();
              DataKeyFile.decrypt(
                  new ByteArrayInputStream(HEX.parseHex(rewrapped.get("file_hex").getAsString())),
                  opened,
                  unwrapper);
              assertArrayEquals(expected, opened.toByteArray());
            }));
    for (JsonElement element : vectors.getAsJsonArray("invalid")) {
      JsonObject c = element.getAsJsonObject();
      tests.add(
          DynamicTest.dynamicTest(
              "invalid " + c.get("name").getAsString(),
              () -> {
                InvalidFileException e =
                    assertThrows(
                        InvalidFileException.class,
                        () ->
                            DataKeyFile.decrypt(
                                new ByteArrayInputStream(
                                    HEX.parseHex(c.get("file_hex").getAsString())),
                                new ByteArrayOutputStream(),
                                unwrapper));
                assertEquals(c.get("reason").getAsString(), e.defect());
              }));
    }
    return tests.stream();
  }

  @Test
  void aFileRoundTripsThroughTheServersDataKeys() throws Exception {
    byte[] plaintext = new byte[200_000];
    new SecureRandom().nextBytes(plaintext);
    try (CipherdClient client = SharedServer.client()) {
      ByteArrayOutputStream file = new ByteArrayOutputStream();
      FileResult sealed =
          client.encryptFile("demo", new ByteArrayInputStream(plaintext), file, utf8("doc-1"));
      assertEquals("demo", sealed.keyName());
      assertEquals(plaintext.length, sealed.plaintextBytes());
      ByteArrayOutputStream opened = new ByteArrayOutputStream();
      client.decryptFile(
          new ByteArrayInputStream(file.toByteArray()), opened, utf8("doc-1"), "demo");
      assertArrayEquals(plaintext, opened.toByteArray());
      // the last chunk (200000 % 65536 bytes and its tag) dropped: the file was cut short
      byte[] cut =
          java.util.Arrays.copyOf(
              file.toByteArray(), file.size() - (plaintext.length % 65536 + 16));
      InvalidFileException e =
          assertThrows(
              InvalidFileException.class,
              () ->
                  client.decryptFile(
                      new ByteArrayInputStream(cut),
                      new ByteArrayOutputStream(),
                      utf8("doc-1"),
                      ""));
      assertEquals("truncated", e.defect());
      assertThrows(
          UnexpectedKeyException.class,
          () ->
              client.decryptFile(
                  new ByteArrayInputStream(file.toByteArray()),
                  new ByteArrayOutputStream(),
                  utf8("doc-1"),
                  "other"));
    }
  }

  @Test
  void aFilesKeyRewrapsToTheCurrentVersionAndTheFileStillDecrypts() throws Exception {
    byte[] plaintext = utf8("a file to keep across a rotation");
    String key = Testdata.keyName();
    try (CipherdClient client = SharedServer.client()) {
      client.keys().create(key, Mode.GCM);
      ByteArrayOutputStream file = new ByteArrayOutputStream();
      client.encryptFile(key, new ByteArrayInputStream(plaintext), file, utf8("f"));
      client.keys().rotate(key);
      ByteArrayOutputStream moved = new ByteArrayOutputStream();
      Rewrapped rewrapped =
          client.rewrapFileKey(
              new ByteArrayInputStream(file.toByteArray()), moved, utf8("f"), "", key);
      assertEquals(2, rewrapped.keyVersion());
      assertEquals(1, rewrapped.sourceKeyVersion());
      ByteArrayOutputStream opened = new ByteArrayOutputStream();
      FileResult result =
          client.decryptFile(new ByteArrayInputStream(moved.toByteArray()), opened, utf8("f"), key);
      assertEquals(2, result.keyVersion());
      assertArrayEquals(plaintext, opened.toByteArray());
    }
  }
}
