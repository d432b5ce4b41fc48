package io.cipherd.client;

/** A ciphertext rewrapped by reEncrypt: the new text, its version and the version it came from. */
public record Rewrapped(String ciphertext, int keyVersion, int sourceKeyVersion) {
  @Override
  public String toString() {
    return "Rewrapped[keyVersion=" + keyVersion + ", sourceKeyVersion=" + sourceKeyVersion + "]";
  }
}
