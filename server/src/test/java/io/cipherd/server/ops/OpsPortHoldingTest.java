package io.cipherd.server.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.ServerProcess;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that hold connections to the operators' HTTP port, over real sockets: half-sent requests
 * never keep a probe waiting, and the server closes them at the request time.
 */
class OpsPortHoldingTest {
  static final byte[] HALF_REQUEST =
      "GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII);

  /** A probe answer within this is well inside the chart's 2 s probe timeout. */
  static final Duration PROBE_BUDGET = Duration.ofSeconds(1);

  @TempDir Path dir;

  @Test
  void probesAnswerWithinTheirBudget_while100HalfSentRequestsAreHeld() throws Exception {
    try (RunningOpsServer http =
        RunningOpsServer.start(Pkcs12KeyStore.open(dir, "pw".toCharArray()))) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 100; i++) {
          Socket socket = new Socket("127.0.0.1", http.port());
          socket.getOutputStream().write(HALF_REQUEST);
          held.add(socket);
        }
        // Whether or not the JDK's request time applies in this JVM (another test's HttpServer may
        // have fixed it), the held requests park only their own threads.
        for (int round = 0; round < 3; round++) {
          for (String path : List.of("/healthz", "/readyz", "/metrics")) {
            long started = System.nanoTime();
            assertThat(statusLine(http.port(), path)).as(path).isEqualTo("HTTP/1.1 200 OK");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as(path)
                .isLessThan(PROBE_BUDGET);
          }
        }
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
    }
  }

  /**
   * In a JVM of its own, so that this server is the first HttpServer and its limits apply: a
   * half-sent request, one trickling a byte a second and a connection that sends nothing are each
   * closed within the request timeout plus the JDK's 1 s check (plus slack for a loaded machine). A
   * JDK setting the operator gave with {@code -D} is kept, not overwritten by the option's value.
   */
  @Test
  void heldConnectionsAreClosedAtTheRequestTimeout() throws Exception {
    Path password = Files.writeString(dir.resolve("password"), "pw");
    try (ServerProcess server =
        ServerProcess.start(
            List.of("-Xmx192m", "-XX:+UseSerialGC", "-Djdk.httpserver.maxConnections=100"),
            List.of(
                "--host",
                "127.0.0.1",
                "--data-dir",
                dir.resolve("data").toString(),
                "--keystore-password-file",
                password.toString(),
                "--http-request-timeout",
                "PT1S"),
            Map.of(),
            dir.resolve("server.log"))) {
      Duration bound = Duration.ofSeconds(1 + 1 + 2);
      try (Socket half = new Socket("127.0.0.1", server.httpPort());
          Socket trickling = new Socket("127.0.0.1", server.httpPort());
          Socket silent = new Socket("127.0.0.1", server.httpPort())) {
        long started = System.nanoTime();
        half.getOutputStream().write(HALF_REQUEST);
        trickling.getOutputStream().write("GET /healthz HTTP/1.1\r\nX-Slow: ".getBytes());
        trickling.setSoTimeout(1000);
        boolean closed = false;
        while (!closed && Duration.ofNanos(System.nanoTime() - started).compareTo(bound) < 0) {
          try {
            trickling.getOutputStream().write('a');
            closed = trickling.getInputStream().read() == -1;
          } catch (SocketTimeoutException stillOpen) {
            // a byte a second, as a slowloris sends
          } catch (IOException reset) {
            closed = true;
          }
        }
        assertThat(closed).as("trickling connection closed within %s", bound).isTrue();
        assertClosedWithin(half, bound, started);
        assertClosedWithin(silent, bound, started);
        assertThat(statusLine(server.httpPort(), "/healthz")).isEqualTo("HTTP/1.1 200 OK");
      }
      assertThat(server.log())
          .contains("-Djdk.httpserver.maxConnections=100 is used instead of 256");
    }
  }

  private static void assertClosedWithin(Socket socket, Duration bound, long startedNanos)
      throws IOException {
    long left = bound.toMillis() - Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
    socket.setSoTimeout((int) Math.max(1, left));
    int read;
    try {
      read = socket.getInputStream().read();
    } catch (SocketTimeoutException e) {
      throw new AssertionError("connection still open after " + bound, e);
    } catch (IOException reset) {
      read = -1;
    }
    assertThat(read).as("the server closed the connection without an answer").isEqualTo(-1);
  }

  /** The status line of a GET of {@code path}, read with the probe budget as timeout. */
  static String statusLine(int port, String path) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) PROBE_BUDGET.toMillis());
      socket
          .getOutputStream()
          .write(
              ("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      return answer.lines().findFirst().orElse("");
    }
  }
}
