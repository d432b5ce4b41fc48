package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keystore.kek.KekUnwrapException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The operator's ERROR line for a blob that does not unwrap: it names the key, version and KEKs,
 * and comes once a minute per key version however many calls fail.
 */
class UnwrapFailureLogTest {
  private final Logger logger = (Logger) LoggerFactory.getLogger(VaultKeyStore.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T14:00:00Z"));
  private final UnwrapFailureLog log = new UnwrapFailureLog(clock);
  private final KekUnwrapException why =
      new KekUnwrapException(
          "key 'payments' version 2 in Vault is wrapped by transit:transit/old, not by this"
              + " server's transit:transit/new");

  @BeforeEach
  void attach() {
    appender.start();
    logger.addAppender(appender);
  }

  @AfterEach
  void detach() {
    logger.detachAppender(appender);
  }

  @Test
  void aFailure_isOneErrorLine_perKeyVersion_perMinute() {
    log.report("payments", 2, "transit:transit/old", why);
    log.report("payments", 2, "transit:transit/old", why);
    log.report("payments", 3, "transit:transit/old", why);
    clock.advance(Duration.ofSeconds(59));
    log.report("payments", 2, "transit:transit/old", why);
    assertThat(errors()).hasSize(2);

    clock.advance(Duration.ofSeconds(1));
    log.report("payments", 2, "transit:transit/old", why);

    List<String> errors = errors();
    assertThat(errors).hasSize(3);
    assertThat(errors.get(0))
        .startsWith(
            "key 'payments' version 2: the stored material (wrapped by transit:transit/old)")
        .contains("not by this server's transit:transit/new", "--kek-also-unwrap");
    assertThat(errors.get(1)).startsWith("key 'payments' version 3:");
  }

  private List<String> errors() {
    return appender.list.stream()
        .filter(event -> event.getLevel() == Level.ERROR)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }
}
