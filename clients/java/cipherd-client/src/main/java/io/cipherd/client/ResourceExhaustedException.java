package io.cipherd.client;

/** The server is busy or a limit was reached (RESOURCE_EXHAUSTED). */
public class ResourceExhaustedException extends CipherdException {
  private static final long serialVersionUID = 1L;

  ResourceExhaustedException(ErrorDetails details) {
    super(details);
  }
}
