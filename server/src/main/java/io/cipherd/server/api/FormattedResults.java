package io.cipherd.server.api;

import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.server.engine.Formatted;
import java.util.function.Supplier;

/** One format-preserving item's answer, as batches and streams give it. */
final class FormattedResults {
  private FormattedResults() {}

  /**
   * The item's result: the value {@code work} made and its versions, or the item's own error; never
   * throws for a bad item.
   */
  static FormattedBatchResult of(String reference, Supplier<Formatted> work) {
    FormattedBatchResult.Builder result = FormattedBatchResult.newBuilder().setReference(reference);
    try {
      Formatted done = work.get();
      result
          .setValue(done.value())
          .setKeyVersion(done.keyVersion())
          .setSourceKeyVersion(done.sourceVersion());
    } catch (RuntimeException e) {
      result.setError(StatusMapper.toItemError(e));
    }
    return result.build();
  }
}
