package io.cipherd.server.api;

import io.cipherd.api.v1.FpeFormatOrBuilder;
import io.cipherd.api.v1.FpeTemplate;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.server.crypto.fpe.FormatTemplate;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.errors.InvalidArgumentException;

/**
 * Converts a format-preserving key's format between the API's {@code cipherd.v1.FpeFormat} and the
 * domain's {@link FpeFormat}.
 */
final class FpeFormatProtos {
  private FpeFormatProtos() {}

  /** The domain format of {@code proto}; FpeFormat refuses what it does not accept. */
  static FpeFormat fromProto(FpeFormatOrBuilder proto) {
    return switch (proto.getShapeCase()) {
      case ALPHABET ->
          FpeFormat.ofAlphabet(
              proto.getAlphabet(),
              proto.getVersionPrefixLength(),
              proto.getAcceptSmallDomain(),
              proto.getMaskVisibleSuffix());
      case TEMPLATE -> {
        if (proto.getVersionPrefixLength() != 0) {
          throw new InvalidArgumentException(
              "fpe_format.version_prefix_length is for alphabets only: a template's shape has no"
                  + " room for a prefix; store the key_version beside the value");
        }
        yield FpeFormat.ofTemplate(
            template(proto.getTemplate()),
            proto.getAcceptSmallDomain(),
            proto.getMaskVisibleSuffix());
      }
      case SHAPE_NOT_SET ->
          throw new InvalidArgumentException("fpe_format needs an alphabet or a template");
    };
  }

  /** Sets {@code version}'s fpe_format to {@code format}. */
  static void setFormat(KeyVersion.Builder version, FpeFormat format) {
    var proto =
        version
            .getFpeFormatBuilder()
            .setVersionPrefixLength(format.versionPrefixLength())
            .setAcceptSmallDomain(format.acceptSmallDomain())
            .setMaskVisibleSuffix(format.maskVisibleSuffix());
    if (format.template() != null) {
      proto.setTemplate(toProto(format.template()));
    } else {
      proto.setAlphabet(format.alphabetText());
    }
  }

  static FpeTemplate toProto(FormatTemplate template) {
    return switch (template) {
      case DIGITS -> FpeTemplate.FPE_TEMPLATE_DIGITS;
      case LOWER_ALPHANUMERIC -> FpeTemplate.FPE_TEMPLATE_LOWER_ALPHANUMERIC;
      case ALPHANUMERIC -> FpeTemplate.FPE_TEMPLATE_ALPHANUMERIC;
      case CARD_NUMBER -> FpeTemplate.FPE_TEMPLATE_CARD_NUMBER;
      case CARD_NUMBER_LAST_FOUR -> FpeTemplate.FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR;
      case PHONE_NUMBER -> FpeTemplate.FPE_TEMPLATE_PHONE_NUMBER;
    };
  }

  private static FormatTemplate template(FpeTemplate proto) {
    return switch (proto) {
      case FPE_TEMPLATE_DIGITS -> FormatTemplate.DIGITS;
      case FPE_TEMPLATE_LOWER_ALPHANUMERIC -> FormatTemplate.LOWER_ALPHANUMERIC;
      case FPE_TEMPLATE_ALPHANUMERIC -> FormatTemplate.ALPHANUMERIC;
      case FPE_TEMPLATE_CARD_NUMBER -> FormatTemplate.CARD_NUMBER;
      case FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR -> FormatTemplate.CARD_NUMBER_LAST_FOUR;
      case FPE_TEMPLATE_PHONE_NUMBER -> FormatTemplate.PHONE_NUMBER;
      case FPE_TEMPLATE_UNSPECIFIED, UNRECOGNIZED ->
          throw new InvalidArgumentException(
              "fpe_format.template is not a known cipherd.v1.FpeTemplate value");
    };
  }
}
