package io.cipherd.server.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import java.util.Iterator;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Switches the console's log lines to the configured format once the command line is parsed
 * (logback has configured itself from logback.xml by then, so the text format is the default). JSON
 * uses logback's own {@link JsonEncoder}: one object per line with the formatted message, the MDC
 * (request id) and the key-value pairs of access-log lines.
 */
public final class LogOutput {
  private LogOutput() {}

  public static void use(LogFormat format) {
    if (format != LogFormat.JSON) {
      return;
    }
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      LoggerFactory.getLogger(LogOutput.class)
          .warn("JSON logs need logback; keeping the text format");
      return;
    }
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      if (it.next() instanceof OutputStreamAppender<ILoggingEvent> appender) {
        appender.stop();
        appender.setEncoder(jsonEncoder(context));
        appender.start();
      }
    }
  }

  static JsonEncoder jsonEncoder(LoggerContext context) {
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(context);
    encoder.setWithSequenceNumber(false);
    encoder.setWithNanoseconds(false);
    encoder.setWithContext(false);
    // The formatted message only: the template and its arguments would say the same thing twice.
    encoder.setWithMessage(false);
    encoder.setWithArguments(false);
    encoder.setWithFormattedMessage(true);
    encoder.start();
    return encoder;
  }
}
