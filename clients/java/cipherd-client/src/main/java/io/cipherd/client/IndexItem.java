package io.cipherd.client;

import java.nio.charset.StandardCharsets;

/** One value of a blind-index batch; {@code reference} is echoed in its result. */
public record IndexItem(String reference, byte[] value) {
  public static IndexItem of(String reference, String value) {
    return new IndexItem(reference, value.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "IndexItem[reference=" + reference + "]";
  }
}
