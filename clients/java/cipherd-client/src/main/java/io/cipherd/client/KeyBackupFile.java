package io.cipherd.client;

/**
 * What {@link KeyAdmin#backup} answers: {@code file}, a serialized KeyBackupFile (write it to disk
 * as it is; only the recipient's private key opens it), and {@code key}, the key as backed up.
 */
public record KeyBackupFile(byte[] file, Key key) {
  public KeyBackupFile {
    file = file.clone();
  }

  @Override
  public byte[] file() {
    return file.clone();
  }
}
