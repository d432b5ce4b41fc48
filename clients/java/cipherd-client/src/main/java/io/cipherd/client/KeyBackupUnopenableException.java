package io.cipherd.client;

/**
 * A backup file this private key cannot open ({@link OpenedKeyBackup#open}): made for another
 * recipient, tampered with, or no backup at all. Nothing was sent to a server.
 */
public class KeyBackupUnopenableException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  KeyBackupUnopenableException(String message) {
    super(message);
  }
}
