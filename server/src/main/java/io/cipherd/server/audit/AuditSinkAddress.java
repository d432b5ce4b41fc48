package io.cipherd.server.audit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the off-host copy of the trail goes: {@code tcp://host:port} or {@code unix:/path} (a
 * socket a forwarder such as rsyslog, Fluent Bit or socat listens on), validated on construction.
 */
public record AuditSinkAddress(String spec, SocketAddress address) {
  public AuditSinkAddress {
    if (address == null) {
      throw new IllegalArgumentException("an audit sink needs an address");
    }
  }

  /** Parses {@code tcp://host:port} or {@code unix:/path}. */
  public static AuditSinkAddress parse(String spec) {
    String value = spec.strip();
    if (value.startsWith("unix:")) {
      String path = value.substring("unix:".length());
      if (path.isEmpty()) {
        throw new IllegalArgumentException(
            "--audit-sink unix: needs a socket path, e.g. unix:/run/audit.sock");
      }
      return new AuditSinkAddress(value, UnixDomainSocketAddress.of(Path.of(path)));
    }
    if (value.startsWith("tcp://")) {
      URI uri;
      try {
        uri = URI.create(value);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--audit-sink " + value + " is not tcp://host:port");
      }
      if (uri.getHost() == null || uri.getPort() <= 0 || !"".equals(orEmpty(uri.getPath()))) {
        throw new IllegalArgumentException("--audit-sink " + value + " is not tcp://host:port");
      }
      return new AuditSinkAddress(
          value, InetSocketAddress.createUnresolved(uri.getHost(), uri.getPort()));
    }
    throw new IllegalArgumentException(
        "--audit-sink must be tcp://host:port or unix:/path, got " + value);
  }

  /** A new blocking connection, given {@code timeout} to connect. */
  SocketChannel connect(Duration timeout) throws IOException {
    if (address instanceof UnixDomainSocketAddress unix) {
      SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      try {
        channel.connect(unix);
      } catch (IOException e) {
        channel.close();
        throw e;
      }
      return channel;
    }
    InetSocketAddress unresolved = (InetSocketAddress) address;
    SocketChannel channel = SocketChannel.open();
    try {
      channel.socket().setTcpNoDelay(true);
      channel
          .socket()
          .connect(
              new InetSocketAddress(unresolved.getHostString(), unresolved.getPort()),
              (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return channel;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  @Override
  public String toString() {
    return spec;
  }
}
