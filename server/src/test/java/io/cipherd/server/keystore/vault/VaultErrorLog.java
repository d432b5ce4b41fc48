package io.cipherd.server.keystore.vault;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** What {@link VaultErrors} logs while open: the details that callers' messages leave out. */
final class VaultErrorLog implements AutoCloseable {
  private final Logger logger = (Logger) LoggerFactory.getLogger(VaultErrors.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  VaultErrorLog() {
    appender.start();
    logger.addAppender(appender);
  }

  /** The WARN lines so far, formatted. */
  List<String> warnings() {
    return appender.list.stream()
        .filter(event -> event.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** Every line so far, formatted. */
  List<String> lines() {
    return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}
