package io.cipherd.server.api;

import io.cipherd.api.v1.NormalizationOrBuilder;
import io.cipherd.server.crypto.index.Normalization;

/** Converts the API's {@code Normalization} message to the domain's. */
final class NormalizationProtos {
  private NormalizationProtos() {}

  /** The steps the request asks for; an absent message asks for none. */
  static Normalization fromProto(NormalizationOrBuilder normalization) {
    return new Normalization(
        normalization.getTrim(), normalization.getNfkc(), normalization.getCasefold());
  }
}
