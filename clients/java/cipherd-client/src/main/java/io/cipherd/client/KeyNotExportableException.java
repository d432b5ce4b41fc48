package io.cipherd.client;

/**
 * {@link KeyAdmin#backup} named a key that was not made exportable (KEY_NOT_EXPORTABLE): create it
 * exportable, or mark it with {@link KeyAdmin#setExportable}.
 */
public class KeyNotExportableException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  KeyNotExportableException(ErrorDetails details) {
    super(details);
  }
}
