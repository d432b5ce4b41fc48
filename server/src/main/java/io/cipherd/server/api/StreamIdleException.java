package io.cipherd.server.api;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * An item stream received nothing for the idle timeout and is closed, every item answered:
 * CANCELLED.
 */
final class StreamIdleException extends CipherdException {
  StreamIdleException(String message) {
    super(ErrorKind.STREAM_IDLE, message);
  }
}
