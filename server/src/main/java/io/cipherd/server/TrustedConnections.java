package io.cipherd.server;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.buffer.ByteBufUtil;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Error;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslHandler;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mutual-TLS connections open now, so that a replaced client CA reaches them too: grpc-java
 * applies new trust to new handshakes only. When the CA changes ({@link #closeUntrusted}), each
 * connection whose client certificate the new CA does not verify is sent GOAWAY at once, so its
 * client makes further calls on a new connection (whose handshake the new CA decides), and is
 * closed after {@link #GRACE}, in which calls in flight may finish. A connection still in its
 * handshake is checked when the handshake completes.
 *
 * <p>It knows the connections by watching the listening socket accept them: it gives the server its
 * own listening channel and event loops ({@link #serve}), of the kind grpc-java would choose (epoll
 * where available, else NIO).
 */
final class TrustedConnections implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TrustedConnections.class);

  /**
   * How long calls in flight on a connection whose certificate is no longer trusted may still
   * finish: longer than any unary call or batch takes, short against the reload period, so a stream
   * on such a connection ends (UNAVAILABLE) within this of the CA reload log line.
   */
  static final Duration GRACE = Duration.ofSeconds(5);

  private static final String GOAWAY_DEBUG =
      "client certificate no longer trusted: the server's client CA changed";

  private final Set<Channel> open = ConcurrentHashMap.newKeySet();
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final boolean epoll = Epoll.isAvailable();
  private volatile X509TrustManager trust;

  private TrustedConnections() {
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    // Daemon threads, as grpc-java's own event loops are.
    this.boss =
        new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("cipherd-boss", true), io);
    // Zero: Netty's default, twice the cores, as grpc-java's shared worker group has.
    this.workers =
        new MultiThreadIoEventLoopGroup(0, new DefaultThreadFactory("cipherd-worker", true), io);
  }

  /** Makes {@code builder} accept its connections through a new instance, which it returns. */
  static TrustedConnections serve(NettyServerBuilder builder) {
    TrustedConnections connections = new TrustedConnections();
    Acceptor acceptor = connections.new Acceptor();
    builder
        .channelFactory(
            () -> {
              ServerChannel channel =
                  connections.epoll ? new EpollServerSocketChannel() : new NioServerSocketChannel();
              channel.pipeline().addLast(acceptor);
              return channel;
            })
        .bossEventLoopGroup(connections.boss)
        .workerEventLoopGroup(connections.workers);
    return connections;
  }

  /**
   * From now on, connections need a client certificate {@code trust} verifies: those open now whose
   * certificate it does not are sent GOAWAY and closed after {@link #GRACE}, and so are new ones
   * that resume a session it would not verify. Given the first CA at start.
   */
  void closeUntrusted(X509TrustManager trust) {
    this.trust = trust;
    for (Channel channel : open) {
      channel.eventLoop().execute(() -> check(channel));
    }
  }

  /**
   * On the channel's event loop, once it is set up: checks it when its handshake is done. A
   * handshake may have verified the certificate under the old CA, or not at all: a client resuming
   * a TLS session is not verified again by the TLS stack.
   */
  private void watch(Channel channel) {
    SslHandler ssl = channel.pipeline().get(SslHandler.class);
    if (ssl == null) {
      return;
    }
    ssl.handshakeFuture()
        .addListener(
            done -> {
              if (done.isSuccess()) {
                check(channel);
              }
            });
  }

  /** On the channel's event loop. */
  private void check(Channel channel) {
    SslHandler ssl = channel.pipeline().get(SslHandler.class);
    if (ssl == null || !channel.isActive() || !ssl.handshakeFuture().isDone()) {
      // Not yet handshaken: watch() checks it once it is.
      return;
    }
    X509TrustManager current = trust;
    X509Certificate[] chain;
    try {
      Certificate[] peer = ssl.engine().getSession().getPeerCertificates();
      chain = Arrays.copyOf(peer, peer.length, X509Certificate[].class);
    } catch (SSLPeerUnverifiedException | ArrayStoreException e) {
      return;
    }
    if (current == null || chain.length == 0) {
      return;
    }
    try {
      current.checkClientTrusted(chain, chain[0].getPublicKey().getAlgorithm());
    } catch (CertificateException | RuntimeException untrusted) {
      // Not to be resumed: a resumed session skips the TLS stack's certificate check.
      ssl.engine().getSession().invalidate();
      log.warn(
          "closing the connection from {}: its client certificate '{}' does not verify against the"
              + " new client CA ({}); calls in flight have {} to finish",
          channel.remoteAddress(),
          chain[0].getSubjectX500Principal().getName(),
          untrusted.getMessage(),
          GRACE);
      goAway(channel);
      channel
          .eventLoop()
          .schedule(() -> forceClose(channel), GRACE.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** GOAWAY with no error, naming the last stream begun: those may finish, no new ones start. */
  private static void goAway(Channel channel) {
    Http2ConnectionHandler http2 = channel.pipeline().get(Http2ConnectionHandler.class);
    if (http2 == null) {
      channel.close();
      return;
    }
    ChannelHandlerContext context = channel.pipeline().context(http2);
    http2.goAway(
        context,
        http2.connection().remote().lastStreamCreated(),
        Http2Error.NO_ERROR.code(),
        ByteBufUtil.writeAscii(context.alloc(), GOAWAY_DEBUG),
        context.newPromise());
    context.flush();
  }

  /**
   * Closes the socket under the HTTP/2 handler, which after a GOAWAY would wait for the streams
   * still open however long they run; they end with UNAVAILABLE.
   */
  private static void forceClose(Channel channel) {
    ChannelHandlerContext first = channel.pipeline().firstContext();
    if (first == null) {
      channel.close();
    } else {
      first.close();
    }
  }

  /** Stops the event loops; after the server has terminated. */
  @Override
  public void close() {
    boss.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 5, TimeUnit.SECONDS);
  }

  /** On the listening channel: notes each connection it accepts until that closes. */
  @ChannelHandler.Sharable
  private final class Acceptor extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
      context.fireChannelRead(message);
      if (message instanceof Channel connection) {
        open.add(connection);
        connection.closeFuture().addListener(closed -> open.remove(connection));
        try {
          // The server's acceptor registered it just now: its set-up runs before this task.
          connection.eventLoop().execute(() -> watch(connection));
        } catch (IllegalStateException notRegistered) {
          // Its registration failed, and the acceptor closed it.
        }
      }
    }
  }
}
