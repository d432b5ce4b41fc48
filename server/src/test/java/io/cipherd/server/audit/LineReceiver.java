package io.cipherd.server.audit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A line receiver over real TCP on 127.0.0.1, as a forwarder (socat, rsyslog) would be: it keeps
 * the whole lines each connection brings, in order, and can go away and come back on its port.
 */
final class LineReceiver implements AutoCloseable {
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
  private final int port;
  private ServerSocket server;
  private Thread acceptor;
  private final List<Socket> connections = new ArrayList<>();

  LineReceiver() throws IOException {
    this(0);
  }

  private LineReceiver(int port) throws IOException {
    this.port = listen(port);
  }

  String address() {
    return "tcp://127.0.0.1:" + port;
  }

  /** The lines kept so far, as one string. */
  synchronized String text() {
    return kept.toString(StandardCharsets.UTF_8);
  }

  /**
   * The lines kept once they are {@code done}, or after ten seconds whatever they are: the reading
   * threads may still be taking in the last bytes a sender wrote before it closed, on a busy
   * machine.
   */
  String textOnce(Predicate<String> done) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String text = text();
    while (!done.test(text) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      text = text();
    }
    return text;
  }

  /**
   * Stops listening and drops every connection. Returns once the port refuses connections: closing
   * a server socket while its acceptor is blocked in {@code accept} leaves the kernel's listener in
   * place until that thread has left the call, and in that time (long, on a loaded machine) the
   * kernel still completes new connections to it, so a sender reconnecting at once found a receiver
   * still there.
   */
  void stop() throws IOException, InterruptedException {
    ServerSocket listening;
    Thread accepting;
    synchronized (this) {
      listening = server;
      accepting = acceptor;
    }
    listening.close();
    accepting.join();
    synchronized (this) {
      // Also any connection the acceptor took while closing.
      for (Socket socket : connections) {
        socket.close();
      }
      connections.clear();
    }
  }

  /** Listens on the same port again. */
  void restart() throws IOException {
    listen(port);
  }

  private int listen(int on) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), on));
    Thread accepting =
        Thread.ofPlatform()
            .daemon()
            .unstarted(
                () -> {
                  while (!socket.isClosed()) {
                    try {
                      Socket connection = socket.accept();
                      synchronized (this) {
                        connections.add(connection);
                      }
                      Thread.ofPlatform().daemon().start(() -> read(connection));
                    } catch (IOException closed) {
                      return;
                    }
                  }
                });
    synchronized (this) {
      server = socket;
      acceptor = accepting;
    }
    accepting.start();
    return socket.getLocalPort();
  }

  private void read(Socket connection) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try (InputStream in = new BufferedInputStream(connection.getInputStream())) {
      int b;
      while ((b = in.read()) >= 0) {
        line.write(b);
        if (b == '\n') {
          synchronized (this) {
            kept.writeBytes(line.toByteArray());
          }
          line.reset();
        }
      }
    } catch (IOException closed) {
      // A line cut by the connection's end is not kept: the sender sends it again whole.
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    stop();
  }
}
