package io.cipherd.server.logging;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** grpc-java's java.util.logging output, routed into SLF4J as {@code Main} routes it. */
final class JulToSlf4j {
  private JulToSlf4j() {}

  /** Routes every level. */
  static void routeEveryLevel() {
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    Logger.getLogger("").setLevel(Level.ALL);
  }

  /** Back to INFO and above, java.util.logging's default. */
  static void restoreDefaultLevel() {
    Logger.getLogger("").setLevel(Level.INFO);
  }
}
