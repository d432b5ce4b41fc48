package io.cipherd.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Everything logged anywhere in this JVM while open, at every level, rendered with message, MDC,
 * key-value pairs and full stack traces (exception messages included), as one text to search.
 * grpc-java's java.util.logging output is routed in as {@code Main} routes it.
 */
final class CapturedLogs extends AppenderBase<ILoggingEvent> implements AutoCloseable {
  private final StringBuilder text = new StringBuilder();
  private final PatternLayout layout = new PatternLayout();
  private final Logger root;
  private final Level rootLevel;

  CapturedLogs() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    rootLevel = root.getLevel();
    layout.setContext(context);
    layout.setPattern("%level %logger [%thread] %mdc %kvp - %msg%n%ex{full}");
    layout.start();
    setContext(context);
    setName("captured-logs");
    start();
    JulToSlf4j.routeEveryLevel();
    root.setLevel(Level.ALL);
    root.addAppender(this);
  }

  @Override
  protected synchronized void append(ILoggingEvent event) {
    text.append(layout.doLayout(event));
  }

  synchronized String text() {
    return text.toString();
  }

  /** Keeps the captured text under target/ for whoever investigates a failure. */
  void saveTo(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    root.detachAppender(this);
    root.setLevel(rootLevel);
    JulToSlf4j.restoreDefaultLevel();
    stop();
  }
}
