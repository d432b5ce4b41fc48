package io.cipherd.client;

/** Another writer changed the key first (reason CONCURRENT_UPDATE): safe to retry. */
public class AbortedException extends CipherdException {
  private static final long serialVersionUID = 1L;

  AbortedException(ErrorDetails details) {
    super(details);
  }
}
