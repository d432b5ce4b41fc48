package io.cipherd.server.logging;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.ReIndexRequest;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;

/**
 * The key name an access-log line shows for a request: its {@code key_name}, or the name in its
 * ciphertext's header (never more of the ciphertext), or a legacy item's key name. Only names that
 * match the key-name syntax are shown, so a hostile name cannot forge log lines or flood them.
 */
public final class RequestKeyName {
  public static final String NONE = "-";
  static final String INVALID = "<invalid>";

  private RequestKeyName() {}

  /** The key name {@code request} names, as the access log shows it. */
  public static String of(Object request) {
    return switch (request) {
      case EncryptRequest r -> named(r.getKeyName());
      case EncryptBatchRequest r -> named(r.getKeyName());
      case DecryptRequest r -> fromHeader(r.getCiphertextBytes());
      case InspectRequest r -> fromHeader(r.getCiphertextBytes());
      case ReEncryptRequest r ->
          r.hasLegacy()
              ? legacy(r.getLegacy(), r.getKeyName())
              : rewrap(r.getCiphertextBytes(), r.getKeyName());
      case ReEncryptStreamRequest r ->
          r.hasLegacy()
              ? legacy(r.getLegacy(), r.getKeyName())
              : rewrap(r.getCiphertextBytes(), r.getKeyName());
      case DecryptStreamRequest r -> fromHeader(r.getCiphertextBytes());
      case DecryptBatchRequest r ->
          r.getItemsCount() == 0 ? NONE : fromHeader(r.getItems(0).getCiphertextBytes());
      case ReEncryptBatchRequest r ->
          r.getItemsCount() > 0 && r.getItems(0).hasLegacy()
              ? legacy(r.getItems(0).getLegacy(), r.getKeyName())
              : rewrap(
                  r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getCiphertextBytes(),
                  r.getKeyName());
      case ReIndexRequest r -> rewrap(r.getCiphertextBytes(), r.getIndexKeyName());
      case ReIndexBatchRequest r ->
          rewrap(
              r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getCiphertextBytes(),
              r.getIndexKeyName());
      case Message m -> byField(m);
      default -> NONE;
    };
  }

  /** Admin requests: any message with a string field {@code key_name}. */
  private static String byField(Message message) {
    var field = message.getDescriptorForType().findFieldByName("key_name");
    if (field == null || field.getJavaType() != Descriptors.FieldDescriptor.JavaType.STRING) {
      return NONE;
    }
    return named((String) message.getField(field));
  }

  /**
   * {@code source->target} when rewrapping to another key (or re-indexing with an index key), else
   * the source.
   */
  private static String rewrap(ByteString ciphertext, String target) {
    String source = ciphertext.isEmpty() ? NONE : fromHeader(ciphertext);
    return target.isEmpty() ? source : source + "->" + named(target);
  }

  /**
   * {@code legacy->target} for a legacy rewrap: the legacy key, with its version if one is named.
   */
  private static String legacy(LegacyCiphertext legacy, String target) {
    String source = named(legacy.getKeyName());
    if (legacy.getKeyVersion() > 0 && EnvelopeHeader.isValidKeyName(source)) {
      source += "/v" + legacy.getKeyVersion();
    }
    return source + "->" + named(target);
  }

  private static String fromHeader(ByteString ciphertext) {
    if (ciphertext.isEmpty()) {
      return NONE;
    }
    try {
      return Envelope.peekHeader(ciphertext).versionedName();
    } catch (RuntimeException e) {
      return INVALID;
    }
  }

  private static String named(String name) {
    if (name.isEmpty()) {
      return NONE;
    }
    return EnvelopeHeader.isValidKeyName(name) ? name : INVALID;
  }
}
