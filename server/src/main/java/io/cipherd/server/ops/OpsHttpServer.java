package io.cipherd.server.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The operators' HTTP port: {@code /metrics} (Prometheus text), {@code /healthz} (the process is
 * up) and {@code /readyz} (SERVING and the key store answers), on the JDK's {@code HttpServer}.
 *
 * <p>Its one dispatcher thread accepts connections and hands each readable one to the executor,
 * which reads the request head and answers it. So that no client can keep a probe waiting, each
 * exchange gets a virtual thread of its own (a connection parked mid-request costs a few KiB and
 * never the dispatcher, which a bounded pool's caller-runs policy would block), and {@link
 * JdkHttpServerSettings} bounds how long a connection may take and how many there are: at most
 * {@code maxConnections} exchanges run at once.
 */
public final class OpsHttpServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;

  private OpsHttpServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds {@code address} and starts answering: {@code /metrics} with {@code scrape}'s text, {@code
   * /readyz} with 200 while {@code health} is SERVING and {@code keyStoreAnswers} holds; {@code
   * /readyz?exclude=keystore} (kube-apiserver's {@code ?exclude=} convention) leaves the key store
   * out, for a readiness probe: with the store down, cached keys still serve. A connection is
   * closed once it took {@code requestTimeout} (whole seconds) to send a request or read its
   * answer, or sat that long without one; past {@code maxConnections} open, new ones are closed on
   * accept.
   */
  public static OpsHttpServer start(
      InetSocketAddress address,
      Duration requestTimeout,
      int maxConnections,
      Function<String, Exposition> scrape,
      Health health,
      BooleanSupplier keyStoreAnswers)
      throws IOException {
    JdkHttpServerSettings.apply(requestTimeout, maxConnections);
    // A burst of connections up to the limit waits in the kernel to be accepted instead of having
    // its SYNs dropped (a probe among them would retry only after a second).
    HttpServer server = HttpServer.create(address, /* backlog= */ maxConnections);
    ExecutorService executor =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("cipherd-http-", 0).factory());
    server.setExecutor(executor);
    server.createContext(
        "/metrics",
        exchange ->
            answer(
                exchange,
                "/metrics",
                () -> {
                  Exposition metrics =
                      scrape.apply(exchange.getRequestHeaders().getFirst("Accept"));
                  return new Response(200, metrics.contentType(), metrics.text());
                }));
    server.createContext(
        "/healthz",
        exchange ->
            answer(
                exchange,
                "/healthz",
                () -> new Response(200, "text/plain; charset=utf-8", "ok\n")));
    server.createContext(
        "/readyz",
        exchange ->
            answer(
                exchange,
                "/readyz",
                () ->
                    readiness(
                        health,
                        "exclude=keystore".equals(exchange.getRequestURI().getRawQuery())
                            ? () -> true
                            : keyStoreAnswers)));
    server.start();
    return new OpsHttpServer(server, executor);
  }

  /** The bound port, useful when the configured port was 0. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(/* delaySeconds= */ 0);
    executor.shutdownNow();
  }

  private static Response readiness(Health health, BooleanSupplier keyStoreAnswers) {
    if (!health.isServing()) {
      return new Response(503, "text/plain; charset=utf-8", "not serving\n");
    }
    if (!keyStoreAnswers.getAsBoolean()) {
      return new Response(503, "text/plain; charset=utf-8", "key store not answering\n");
    }
    return new Response(200, "text/plain; charset=utf-8", "ready\n");
  }

  private static void answer(HttpExchange exchange, String path, Supplier<Response> handler)
      throws IOException {
    try (exchange) {
      Response response;
      if (!exchange.getRequestURI().getPath().equals(path)) {
        response = new Response(404, "text/plain; charset=utf-8", "not found\n");
      } else if (!exchange.getRequestMethod().equals("GET")
          && !exchange.getRequestMethod().equals("HEAD")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        response = new Response(405, "text/plain; charset=utf-8", "method not allowed\n");
      } else {
        response = handler.get();
      }
      byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      if (exchange.getRequestMethod().equals("HEAD")) {
        exchange.sendResponseHeaders(response.status(), -1);
        return;
      }
      exchange.sendResponseHeaders(response.status(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private record Response(int status, String contentType, String body) {}

  /**
   * The metrics as {@code /metrics} answers them: the text and its content type, chosen by the
   * request's {@code Accept} header (OpenMetrics, with exemplars, or the Prometheus text format).
   */
  public record Exposition(String contentType, String text) {}
}
