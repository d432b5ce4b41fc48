package io.cipherd.client;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/** The shared vectors of proto/testdata, and fresh key names. */
final class Testdata {
  private Testdata() {}

  static Path dir() {
    String configured = System.getProperty("cipherd.protoTestdata", "");
    return configured.isEmpty()
        ? Path.of("../../../proto/testdata").toAbsolutePath().normalize()
        : Path.of(configured);
  }

  static JsonObject json(String name) throws IOException {
    return JsonParser.parseString(Files.readString(dir().resolve(name), StandardCharsets.UTF_8))
        .getAsJsonObject();
  }

  /** A fresh key name, so tests sharing a server never see each other's keys. */
  static String keyName() {
    return "t-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
