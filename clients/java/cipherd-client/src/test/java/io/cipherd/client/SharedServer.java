package io.cipherd.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One plaintext server (key "demo", an audit log) shared by the test classes of a run, stopped when
 * the JVM exits; each test uses fresh key names.
 */
final class SharedServer {
  private static TestServer server;
  private static Path auditLog;

  private SharedServer() {}

  static synchronized TestServer get() throws IOException, InterruptedException {
    if (server == null) {
      Path workdir = Files.createTempDirectory("cipherd-java-client");
      auditLog = workdir.resolve("audit.log");
      server =
          TestServer.start(
              workdir.resolve("server"),
              "--demo-key",
              "demo",
              "--audit-log",
              auditLog.toString(),
              "--audit-checkpoint-interval",
              "PT0.05S",
              // The tests of importKey in the clear predate wrapped import (KeyImportTest).
              "--allow-plaintext-key-import");
      TestServer started = server;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close));
    }
    return server;
  }

  static synchronized Path auditLog() throws IOException, InterruptedException {
    get();
    return auditLog;
  }

  static CipherdClient client() throws IOException, InterruptedException {
    return CipherdClient.builder(get().target()).build();
  }
}
