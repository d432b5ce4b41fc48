package io.cipherd.server.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operators' HTTP port: {@code /metrics} (Prometheus text), {@code /healthz} (the process is
 * up) and {@code /readyz} (SERVING and the key store answers). Scrapes and probes are rare and
 * small, so two threads and a short queue are plenty; when both are full the dispatcher thread runs
 * the request itself, which slows new connections instead of dropping them.
 */
public final class OpsHttpServer implements AutoCloseable {
  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ThreadPoolExecutor executor;

  private OpsHttpServer(HttpServer server, ThreadPoolExecutor executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds {@code address} and starts answering: {@code /metrics} with {@code scrape}'s text, {@code
   * /readyz} with 200 while {@code health} is SERVING and {@code keyStoreAnswers} holds; {@code
   * /readyz?exclude=keystore} (kube-apiserver's {@code ?exclude=} convention) leaves the key store
   * out, for a readiness probe: with the store down, cached keys still serve.
   */
  public static OpsHttpServer start(
      InetSocketAddress address,
      Supplier<String> scrape,
      Health health,
      BooleanSupplier keyStoreAnswers)
      throws IOException {
    HttpServer server = HttpServer.create(address, /* backlog= */ 32);
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            2,
            2,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(32),
            runnable -> {
              Thread thread = new Thread(runnable, "cipherd-http");
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.CallerRunsPolicy());
    server.setExecutor(executor);
    server.createContext(
        "/metrics",
        exchange ->
            answer(exchange, "/metrics", () -> new Response(200, PROMETHEUS_TEXT, scrape.get())));
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
}
