package io.cipherd.loadtest.echo;

import com.sun.net.httpserver.HttpServer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The side-by-side's ceiling: {@link EchoService} on a bare grpc-java Netty server with cipherd's
 * settings (see CipherdServer.start: NettyServerBuilder.forAddress, directExecutor,
 * maxInboundMessageSize; no interceptors), plus a tiny HTTP endpoint {@code GET /stats} that
 * reports, in Prometheus text, the JVM's total allocated bytes (all threads, live and ended) and
 * the calls answered per method, so the runner can divide one by the other.
 *
 * <p>Usage: {@code java -jar cipherd-echo.jar PORT STATS_PORT [MAX_INBOUND_BYTES]}, loopback only.
 */
public final class EchoServer {
  private EchoServer() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2) {
      System.err.println("usage: cipherd-echo PORT STATS_PORT [MAX_INBOUND_BYTES]");
      System.exit(2);
    }
    InetAddress loopback = InetAddress.getLoopbackAddress();
    int port = Integer.parseInt(args[0]);
    int statsPort = Integer.parseInt(args[1]);
    // cipherd's --max-message-bytes default (CIPHERD_MAX_MESSAGE_BYTES, 4 MiB)
    int maxInbound = args.length > 2 ? Integer.parseInt(args[2]) : 4 * 1024 * 1024;
    EchoService service = new EchoService();
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress(loopback, port))
        .directExecutor()
        .maxInboundMessageSize(maxInbound)
        .addService(service)
        .build()
        .start();
    HttpServer stats = HttpServer.create(new InetSocketAddress(loopback, statsPort), 0);
    stats.createContext("/stats", exchange -> {
      byte[] body = statsText(service).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    stats.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stats.stop(0);
      server.shutdownNow();
      try {
        server.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }));
    System.out.println("cipherd-echo serving on " + loopback.getHostAddress() + ":" + server.getPort()
        + " (stats on :" + statsPort + ", max inbound " + maxInbound + " B)");
    server.awaitTermination();
  }

  static String statsText(EchoService service) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    StringBuilder sb = new StringBuilder();
    sb.append("# TYPE echo_allocated_bytes_total counter\n");
    sb.append("echo_allocated_bytes_total ").append(threads.getTotalThreadAllocatedBytes()).append('\n');
    sb.append("# TYPE echo_calls_total counter\n");
    service.calls().forEach((method, n) ->
        sb.append("echo_calls_total{method=\"").append(method).append("\"} ").append(n.sum()).append('\n'));
    return sb.toString();
  }
}
