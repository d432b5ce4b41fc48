package io.cipherd.client;

/**
 * The outcome of one item of a batch or stream: a value, or the error the item failed with (the
 * same exception classes as calls). No item is dropped: every item sent has one result.
 */
public record ItemResult<T>(String reference, T value, CipherdException error, int keyVersion) {
  static <T> ItemResult<T> ok(String reference, T value, int keyVersion) {
    return new ItemResult<>(reference, value, null, keyVersion);
  }

  static <T> ItemResult<T> failed(String reference, CipherdException error) {
    return new ItemResult<>(reference, null, error, 0);
  }

  public boolean ok() {
    return error == null;
  }

  /** The value, or throws the item's error. */
  public T get() {
    if (error != null) {
      throw error;
    }
    return value;
  }

  @Override
  public String toString() {
    return ok()
        ? "ItemResult[reference=" + reference + ", keyVersion=" + keyVersion + "]"
        : "ItemResult[reference=" + reference + ", error=" + error.getMessage() + "]";
  }
}
