package io.cipherd.server;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import com.google.rpc.Status;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.StatusProto;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A cipherd server in its own JVM, started as the jar starts it ({@code io.cipherd.server.Main}
 * with a command line) from the test class path, on loopback ports of its own, with a plaintext
 * channel and stubs. The JVM options (a small heap, say) are the caller's.
 */
public final class ServerProcess implements AutoCloseable {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final List<String> jvmOptions;
  private final List<String> arguments;
  private final Map<String, String> environment;
  private final Path log;
  private final int port;
  private final int httpPort;
  private Process process;
  private ManagedChannel channel;

  private ServerProcess(
      List<String> jvmOptions, List<String> arguments, Map<String, String> environment, Path log)
      throws IOException {
    this.jvmOptions = List.copyOf(jvmOptions);
    this.arguments = List.copyOf(arguments);
    this.environment = Map.copyOf(environment);
    this.log = log;
    this.port = freePort();
    this.httpPort = freePort();
  }

  /**
   * Starts {@code Main} with {@code jvmOptions} and {@code arguments} (ports are added), {@code
   * environment} set, its output appended to {@code log}; returns once it answers health checks.
   */
  public static ServerProcess start(
      List<String> jvmOptions, List<String> arguments, Map<String, String> environment, Path log)
      throws Exception {
    ServerProcess server = new ServerProcess(jvmOptions, arguments, environment, log);
    server.launch();
    server.awaitServing();
    return server;
  }

  /** Starts it again, on the same ports, after {@link #stop()}; returns once it serves. */
  public void restart() throws Exception {
    launch();
    awaitServing();
  }

  /** Starts it again without waiting; pair with {@link #awaitServing()}. */
  public void launch() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("already running");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "--sun-misc-unsafe-memory-access=allow",
            "-cp",
            System.getProperty("java.class.path"),
            "io.cipherd.server.Main",
            "--port",
            Integer.toString(port),
            "--http-port",
            Integer.toString(httpPort)));
    command.addAll(arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    process = builder.start();
    if (channel == null) {
      channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    }
  }

  /** Waits until the server answers a health check; throws with its log if it died first. */
  public void awaitServing() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      try {
        HealthGrpc.newBlockingStub(channel)
            .withDeadlineAfter(2, TimeUnit.SECONDS)
            .check(HealthCheckRequest.getDefaultInstance());
        return;
      } catch (RuntimeException notYet) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("server did not start: " + Files.readString(log), notYet);
        }
        Thread.sleep(100);
      }
    }
  }

  /** The HTTP port of /metrics and the probes. */
  public int httpPort() {
    return httpPort;
  }

  public long pid() {
    return process.pid();
  }

  public CryptoServiceGrpc.CryptoServiceBlockingStub crypto() {
    return CryptoServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  public KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin() {
    return KeyAdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  public SubjectServiceGrpc.SubjectServiceBlockingStub subjects() {
    return SubjectServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** The server's Prometheus scrape. */
  public String metrics() throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** The value of the sample line starting {@code series} (name and labels), or 0 if absent. */
  public double metric(String series) throws Exception {
    for (String line : metrics().split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    return 0;
  }

  public String log() throws IOException {
    return Files.readString(log);
  }

  /** Stops the JVM (SIGTERM, then SIGKILL after 20 seconds). */
  public void stop() throws InterruptedException {
    if (process == null) {
      return;
    }
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    stop();
  }

  /** The reason of the ErrorInfo a refused call carries, as a client reads it. */
  public static String reason(StatusRuntimeException e) {
    Status status = StatusProto.fromThrowable(e);
    if (status == null) {
      return "";
    }
    for (Any detail : status.getDetailsList()) {
      if (detail.is(ErrorInfo.class)) {
        try {
          return detail.unpack(ErrorInfo.class).getReason();
        } catch (InvalidProtocolBufferException malformed) {
          throw new IllegalStateException(malformed);
        }
      }
    }
    return "";
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
