package io.cipherd.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class LogOutputTest {
  @Test
  void jsonEncoder_writesOneObjectPerLine_withFormattedMessageRequestIdAndFields() {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(MDC.getMDCAdapter());
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.setContext(context);
    events.start();
    Logger logger = context.getLogger("cipherd.access");
    logger.addAppender(events);

    MDC.put("request_id", "abc123");
    try {
      logger.atInfo().addKeyValue("status", "OK").log("method={} status={}", "Encrypt", "OK");
      // The appender would capture the MDC while the event is logged; ListAppender defers it.
      events.list.get(0).prepareForDeferredProcessing();
    } finally {
      MDC.remove("request_id");
    }

    String json =
        new String(
            LogOutput.jsonEncoder(context).encode(events.list.get(0)), StandardCharsets.UTF_8);
    assertThat(json).startsWith("{").endsWith("}\n").doesNotContain("\n{");
    assertThat(json)
        .contains("\"formattedMessage\":\"method=Encrypt status=OK\"")
        .contains("\"request_id\":\"abc123\"")
        .contains("\"status\":\"OK\"")
        .contains("\"loggerName\":\"cipherd.access\"")
        .doesNotContain("\"arguments\"");
  }
}
