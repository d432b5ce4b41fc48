package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.ReIndexRequest;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.transit.TransitCiphertext;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.ExpectedKey;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.logging.CallRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * A request message read once, for everything that looks at it before the engine does: the keys it
 * names (the key it encrypts or indexes with, a legacy item's key, the header of its ciphertext or
 * of its first item's), its item count and first context. It makes the one routing decision ({@link
 * #fromMemory}), gives the access log and the audit record what they show ({@link CallRequest}),
 * and hands the header it parsed to the engine ({@link #header}), so no header is looked up twice.
 * A batch's items are read where they lie, never copied.
 *
 * <p>The access-log interceptor makes one per message ({@link #read}); the service finds that one
 * ({@link #of}).
 */
final class ParsedRequest implements CallRequest {
  /** What the request does with its keys, as far as routing is concerned. */
  private enum Kind {
    /** Encrypts (or indexes, or wraps a data key) with {@code key}'s {@code keyVersion}. */
    ENCRYPT,
    /** Encrypts (or wraps a data key) for a subject under {@code key}. */
    ENCRYPT_SUBJECT,
    /** Decrypts or inspects {@code ciphertext}. */
    DECRYPT,
    /** Rewraps {@code ciphertext} into {@code key} (empty: its own). */
    REWRAP,
    /** Rewraps a {@code legacy} ciphertext into {@code key}. */
    REWRAP_LEGACY,
    /** Re-indexes {@code ciphertext} with the index key {@code key}. */
    REINDEX,
    DECRYPT_BATCH,
    REWRAP_BATCH,
    REINDEX_BATCH,
    /** Encrypts format-preserving values with {@code key}'s current version. */
    FORMATTED_ENCRYPT,
    /** Decrypts or masks format-preserving values of {@code key}'s {@code keyVersion}. */
    FORMATTED_DECRYPT,
    /** Re-encrypts format-preserving values of {@code key}'s {@code keyVersion} to its current. */
    FORMATTED_REWRAP,
    /** Not a crypto request: admin and audit calls, routed by their services. */
    OTHER
  }

  private final Object message;
  private final Kind kind;
  private final int items;
  private final ByteString firstContext;

  /** The key it encrypts or indexes with, or rewraps into; empty when none. */
  private final String key;

  private final int keyVersion;

  /** Its ciphertext, or its first item's; empty when none. */
  private final String ciphertext;

  /** Its raw {@code expected_key}, or its first item's (its own, else its batch's). */
  private final String expectedKey;

  /** Its legacy ciphertext, or its first item's; null when none. */
  private final LegacyCiphertext legacy;

  // Read on first use, by the thread the call's callbacks run on; a race reads the same value.
  private EnvelopeHeader header;
  private boolean headerRead;
  private String keyName;

  private ParsedRequest(
      Object message,
      Kind kind,
      int items,
      ByteString firstContext,
      String key,
      int keyVersion,
      String ciphertext,
      String expectedKey,
      LegacyCiphertext legacy) {
    this.message = message;
    this.kind = kind;
    this.items = items;
    this.firstContext = firstContext;
    this.key = key;
    this.keyVersion = keyVersion;
    this.ciphertext = ciphertext;
    this.expectedKey = expectedKey;
    this.legacy = legacy;
  }

  /** The view the access-log interceptor made of {@code message}, else a new one. */
  static ParsedRequest of(Object message) {
    return CallRequest.current() instanceof ParsedRequest current && current.message == message
        ? current
        : read(message);
  }

  /** Reads {@code message}: its fields, not yet its ciphertext's header. */
  static ParsedRequest read(Object message) {
    return switch (message) {
      case EncryptRequest r ->
          r.getSubject().isEmpty()
              ? encrypt(r, 1, r.getContext(), r.getKeyName(), r.getKeyVersion())
              : subjectBound(r, 1, r.getContext(), r.getKeyName());
      case EncryptStreamRequest r ->
          r.getSubject().isEmpty()
              ? encrypt(r, 1, r.getContext(), r.getKeyName(), 0)
              : subjectBound(r, 1, r.getContext(), r.getKeyName());
      case GenerateDataKeyRequest r ->
          r.getSubject().isEmpty()
              ? encrypt(r, 1, r.getContext(), r.getKeyName(), 0)
              : subjectBound(r, 1, r.getContext(), r.getKeyName());
      case ComputeIndexRequest r ->
          encrypt(r, 1, ByteString.EMPTY, r.getKeyName(), r.getKeyVersion());
      case EncryptBatchRequest r ->
          hasSubject(r)
              ? subjectBound(
                  r,
                  r.getItemsCount(),
                  r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getContext(),
                  r.getKeyName())
              : encrypt(
                  r,
                  r.getItemsCount(),
                  r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getContext(),
                  r.getKeyName(),
                  0);
      case ComputeIndexBatchRequest r ->
          encrypt(r, r.getItemsCount(), ByteString.EMPTY, r.getKeyName(), 0);
      case DecryptRequest r ->
          single(r, Kind.DECRYPT, r.getContext(), "", r.getCiphertext(), r.getExpectedKey(), null);
      case DecryptStreamRequest r ->
          single(r, Kind.DECRYPT, r.getContext(), "", r.getCiphertext(), r.getExpectedKey(), null);
      case InspectRequest r ->
          single(r, Kind.DECRYPT, ByteString.EMPTY, "", r.getCiphertext(), "", null);
      case ReEncryptRequest r ->
          rewrap(
              r,
              r.hasLegacy() ? r.getLegacy() : null,
              r.getContext(),
              r.getKeyName(),
              r.getCiphertext(),
              r.getExpectedKey());
      case ReEncryptStreamRequest r ->
          rewrap(
              r,
              r.hasLegacy() ? r.getLegacy() : null,
              r.getContext(),
              r.getKeyName(),
              r.getCiphertext(),
              r.getExpectedKey());
      case ReIndexRequest r ->
          single(
              r,
              Kind.REINDEX,
              r.getContext(),
              r.getIndexKeyName(),
              r.getCiphertext(),
              r.getExpectedKey(),
              null);
      case DecryptBatchRequest r ->
          r.getItemsCount() == 0
              ? batch(r, Kind.DECRYPT_BATCH, 0, ByteString.EMPTY, "", "", "", null)
              : batch(
                  r,
                  Kind.DECRYPT_BATCH,
                  r.getItemsCount(),
                  r.getItems(0).getContext(),
                  "",
                  r.getItems(0).getCiphertext(),
                  expectedKey(r.getItems(0).getExpectedKey(), r.getExpectedKey()),
                  null);
      case ReEncryptBatchRequest r -> reEncryptBatch(r);
      case ReIndexBatchRequest r ->
          r.getItemsCount() == 0
              ? batch(r, Kind.REINDEX_BATCH, 0, ByteString.EMPTY, r.getIndexKeyName(), "", "", null)
              : batch(
                  r,
                  Kind.REINDEX_BATCH,
                  r.getItemsCount(),
                  r.getItems(0).getContext(),
                  r.getIndexKeyName(),
                  r.getItems(0).getCiphertext(),
                  expectedKey(r.getItems(0).getExpectedKey(), r.getExpectedKey()),
                  null);
      case EncryptFormattedRequest r ->
          formatted(r, Kind.FORMATTED_ENCRYPT, 1, r.getContext(), r.getKeyName(), 0);
      case DecryptFormattedRequest r ->
          formatted(
              r, Kind.FORMATTED_DECRYPT, 1, r.getContext(), r.getKeyName(), r.getKeyVersion());
      case MaskFormattedRequest r ->
          formatted(
              r, Kind.FORMATTED_DECRYPT, 1, r.getContext(), r.getKeyName(), r.getKeyVersion());
      case ReEncryptFormattedRequest r ->
          formatted(r, Kind.FORMATTED_REWRAP, 1, r.getContext(), r.getKeyName(), r.getKeyVersion());
      case EncryptFormattedStreamRequest r ->
          formatted(r, Kind.FORMATTED_ENCRYPT, 1, r.getContext(), r.getKeyName(), 0);
      case DecryptFormattedStreamRequest r ->
          formatted(
              r, Kind.FORMATTED_DECRYPT, 1, r.getContext(), r.getKeyName(), r.getKeyVersion());
      case ReEncryptFormattedStreamRequest r ->
          formatted(r, Kind.FORMATTED_REWRAP, 1, r.getContext(), r.getKeyName(), r.getKeyVersion());
      case EncryptFormattedBatchRequest r ->
          formatted(
              r,
              Kind.FORMATTED_ENCRYPT,
              r.getItemsCount(),
              r.getItemsCount() == 0 || r.getItems(0).getContext().isEmpty()
                  ? r.getContext()
                  : r.getItems(0).getContext(),
              r.getKeyName(),
              0);
      case DecryptFormattedBatchRequest r ->
          formattedBatch(
              r,
              Kind.FORMATTED_DECRYPT,
              r.getItemsList(),
              r.getContext(),
              r.getKeyName(),
              r.getKeyVersion());
      case ReEncryptFormattedBatchRequest r ->
          formattedBatch(
              r,
              Kind.FORMATTED_REWRAP,
              r.getItemsList(),
              r.getContext(),
              r.getKeyName(),
              r.getKeyVersion());
      default -> new ParsedRequest(message, Kind.OTHER, 0, ByteString.EMPTY, "", 0, "", "", null);
    };
  }

  /**
   * A format-preserving request: its key and the version of its value (its first item's, else its
   * batch's; 0 for an encryption, or a version prefix the engine reads). The values are never kept
   * in this view.
   */
  private static ParsedRequest formatted(
      Object message, Kind kind, int items, ByteString context, String key, int keyVersion) {
    return new ParsedRequest(message, kind, items, context, key, keyVersion, "", "", null);
  }

  private static ParsedRequest formattedBatch(
      Object message,
      Kind kind,
      List<FormattedBatchItem> items,
      ByteString context,
      String key,
      int keyVersion) {
    if (items.isEmpty()) {
      return formatted(message, kind, 0, context, key, keyVersion);
    }
    FormattedBatchItem first = items.get(0);
    return formatted(
        message,
        kind,
        items.size(),
        first.getContext().isEmpty() ? context : first.getContext(),
        key,
        first.getKeyVersion() != 0 ? first.getKeyVersion() : keyVersion);
  }

  private static ParsedRequest reEncryptBatch(ReEncryptBatchRequest r) {
    if (r.getItemsCount() == 0) {
      return batch(r, Kind.REWRAP_BATCH, 0, ByteString.EMPTY, r.getKeyName(), "", "", null);
    }
    ReEncryptBatchItem first = r.getItems(0);
    return batch(
        r,
        Kind.REWRAP_BATCH,
        r.getItemsCount(),
        first.getContext(),
        r.getKeyName(),
        first.hasLegacy() ? "" : first.getCiphertext(),
        expectedKey(first.getExpectedKey(), r.getExpectedKey()),
        first.hasLegacy() ? first.getLegacy() : null);
  }

  /** A ReEncrypt or ReEncryptStream item: of a legacy ciphertext, or of one of cipherd's. */
  private static ParsedRequest rewrap(
      Object message,
      LegacyCiphertext legacy,
      ByteString context,
      String target,
      String ciphertext,
      String expectedKey) {
    return legacy != null
        ? single(message, Kind.REWRAP_LEGACY, context, target, "", expectedKey, legacy)
        : single(message, Kind.REWRAP, context, target, ciphertext, expectedKey, null);
  }

  /** Whether any item of {@code r} is for a subject (its own, or the batch's). */
  private static boolean hasSubject(EncryptBatchRequest r) {
    if (!r.getSubject().isEmpty()) {
      return true;
    }
    for (int i = 0; i < r.getItemsCount(); i++) {
      if (!r.getItems(i).getSubject().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Encrypts for a subject, whose key may need the subject store: served from memory only once
   * every subject's key is known to be cached ({@link #fromMemory(CryptoEngine)}). The subject id
   * itself is not kept in this view (logs and audit records read it).
   */
  private static ParsedRequest subjectBound(
      Object message, int items, ByteString context, String key) {
    return new ParsedRequest(message, Kind.ENCRYPT_SUBJECT, items, context, key, 0, "", "", null);
  }

  private static ParsedRequest encrypt(
      Object message, int items, ByteString context, String key, int keyVersion) {
    return new ParsedRequest(message, Kind.ENCRYPT, items, context, key, keyVersion, "", "", null);
  }

  private static ParsedRequest single(
      Object message,
      Kind kind,
      ByteString context,
      String key,
      String ciphertext,
      String expectedKey,
      LegacyCiphertext legacy) {
    return new ParsedRequest(message, kind, 1, context, key, 0, ciphertext, expectedKey, legacy);
  }

  private static ParsedRequest batch(
      Object message,
      Kind kind,
      int items,
      ByteString firstContext,
      String key,
      String firstCiphertext,
      String firstExpectedKey,
      LegacyCiphertext firstLegacy) {
    return new ParsedRequest(
        message, kind, items, firstContext, key, 0, firstCiphertext, firstExpectedKey, firstLegacy);
  }

  /** An item's raw expected_key: its own when set, else its batch's. */
  private static String expectedKey(String item, String batch) {
    return item.isEmpty() ? batch : item;
  }

  @Override
  public Object message() {
    return message;
  }

  @Override
  public int items() {
    return items;
  }

  @Override
  public ByteString firstContext() {
    return firstContext;
  }

  /**
   * The header of its ciphertext (a batch's: its first item's), parsed once; null when it has none
   * or it does not parse (the engine then says why). The engine opens the ciphertext with it.
   */
  EnvelopeHeader header() {
    if (!headerRead) {
      header = ciphertext.isEmpty() ? null : headerOrNull(ciphertext);
      headerRead = true;
    }
    return header;
  }

  /**
   * Whether serving it needs no key-store call, so it may run on the transport thread: every key
   * version it uses is cached (and an encryption can be reserved from memory, {@link
   * KeyCache#canEncryptFromMemory}), or it fails at once (a header that does not parse, a key its
   * {@code expected_key} refuses). A batch's items are asked in order, stopping at the first that
   * needs the store; an encrypting batch's later items may still need it (a full block of
   * reservations, a rotation at the cap), on an event loop one store call per block, the price of a
   * cap that holds. Only answers; never loads a key. False for requests that are not crypto ones.
   */
  boolean fromMemory(KeyCache keys) {
    return switch (kind) {
      case ENCRYPT -> keys.canEncryptFromMemory(key, keyVersion);
      case ENCRYPT_SUBJECT -> false; // the subjects' keys: fromMemory(CryptoEngine)
      case DECRYPT -> decryptsFromMemory(keys, header(), expectedKey);
      case REWRAP ->
          decryptsFromMemory(keys, header(), expectedKey)
              && (key.isEmpty() || keys.canEncryptFromMemory(key, 0));
      case REWRAP_LEGACY -> legacyFromMemory(keys, legacy, key, expectedKey);
      case REINDEX ->
          decryptsFromMemory(keys, header(), expectedKey) && keys.canEncryptFromMemory(key, 0);
      case DECRYPT_BATCH -> itemsDecryptFromMemory(keys);
      case REWRAP_BATCH ->
          (key.isEmpty() || keys.canEncryptFromMemory(key, 0)) && itemsDecryptFromMemory(keys);
      case REINDEX_BATCH -> keys.canEncryptFromMemory(key, 0) && itemsDecryptFromMemory(keys);
      // A version prefix is read by the engine: version 0 asks whether the key's current one is
      // cached, and the prefix's version may still need the store (it then blocks the transport
      // thread once, as a batch's later items may).
      case FORMATTED_ENCRYPT -> keys.canEncryptFromMemory(key, 0);
      case FORMATTED_DECRYPT -> keys.isCached(key, keyVersion);
      case FORMATTED_REWRAP -> keys.isCached(key, keyVersion) && keys.canEncryptFromMemory(key, 0);
      case OTHER -> false;
    };
  }

  /**
   * As {@link #fromMemory(KeyCache)}, and a unary Encrypt or an EncryptBatch for subjects too once
   * the key's current version can encrypt from memory and every subject's key is cached ({@link
   * CryptoEngine#subjectsWarmForEncryption}), and a unary Decrypt of a subject-bound ciphertext
   * once its key and its subject's key are ({@link CryptoEngine#subjectWarmForDecryption}): such a
   * call then runs on the transport thread as a plain one does, instead of taking a hop to the
   * blocking pool (about a quarter of a unary call's CPU, docs/benchmarks.md). Streams keep their
   * own rule ({@link ItemStream}); a DecryptBatch takes the pool, its hop shared by its items.
   */
  boolean fromMemory(CryptoEngine engine) {
    if (message instanceof DecryptRequest && header() != null && header().isSubjectBound()) {
      String keyName = header().keyName();
      return ExpectedKey.refusesAtOnce(expectedKey, keyName)
          || (engine.keys().isCached(keyName, 0)
              && engine.subjectWarmForDecryption(keyName, ciphertext));
    }
    if (kind != Kind.ENCRYPT_SUBJECT) {
      return fromMemory(engine.keys());
    }
    List<String> subjects = subjectIds(message);
    return subjects != null
        && engine.keys().canEncryptFromMemory(key, 0)
        && engine.subjectsWarmForEncryption(key, subjects);
  }

  /**
   * The subject ids a unary Encrypt or an EncryptBatch encrypts for (a batch's items without one of
   * their own take the batch's; items with neither are plain); null for other requests.
   */
  private static List<String> subjectIds(Object message) {
    return switch (message) {
      case EncryptRequest r -> List.of(r.getSubject());
      case EncryptBatchRequest r -> {
        List<String> ids = new ArrayList<>(r.getItemsCount());
        for (int i = 0; i < r.getItemsCount(); i++) {
          String subject = r.getItems(i).getSubject();
          String id = subject.isEmpty() ? r.getSubject() : subject;
          if (!id.isEmpty()) {
            ids.add(id);
          }
        }
        yield ids;
      }
      default -> null;
    };
  }

  private boolean decryptsFromMemory(KeyCache keys, EnvelopeHeader header, String expectedKey) {
    if (header == null && TransitCiphertext.isTransit(ciphertext)) {
      // No header to find its key version by: it may need the store.
      return false;
    }
    return header == null
        || ExpectedKey.refusesAtOnce(expectedKey, header.keyName())
        || (!header.isSubjectBound() && keys.isCached(header.keyName(), header.version()));
  }

  /** A legacy key {@code expectedKey} refuses fails at once; else both keys must be in memory. */
  private static boolean legacyFromMemory(
      KeyCache keys, LegacyCiphertext legacy, String target, String expectedKey) {
    return ExpectedKey.refusesAtOnce(expectedKey, legacy.getKeyName())
        || (keys.isCached(legacy.getKeyName(), legacy.getKeyVersion())
            && keys.canEncryptFromMemory(target, 0));
  }

  /**
   * Whether decrypting every item's ciphertext (rewrapping a legacy item's, with its legacy key)
   * needs no store. A batch's ciphertexts mostly share a header: one that starts with the text of
   * the last header found in memory is not parsed again.
   */
  private boolean itemsDecryptFromMemory(KeyCache keys) {
    String inMemory = null;
    for (int i = 0; i < items; i++) {
      String itemCiphertext = ciphertextOf(i);
      if (itemCiphertext == null) {
        ReEncryptBatchItem item = ((ReEncryptBatchRequest) message).getItems(i);
        if (!legacyFromMemory(keys, item.getLegacy(), key, expectedKeyOf(i))) {
          return false;
        }
      } else if (inMemory == null || !itemCiphertext.startsWith(inMemory)) {
        if (TransitCiphertext.isTransit(itemCiphertext)) {
          return false;
        }
        EnvelopeHeader itemHeader = i == 0 ? header() : headerOrNull(itemCiphertext);
        if (itemHeader != null
            && !ExpectedKey.refusesAtOnce(expectedKeyOf(i), itemHeader.keyName())) {
          if (itemHeader.isSubjectBound()
              || !keys.isCached(itemHeader.keyName(), itemHeader.version())) {
            return false;
          }
          inMemory = itemHeader.text();
        }
      }
    }
    return true;
  }

  /** Item {@code i}'s ciphertext to decrypt; null for a legacy item. */
  private String ciphertextOf(int i) {
    return switch (message) {
      case DecryptBatchRequest r -> r.getItems(i).getCiphertext();
      case ReEncryptBatchRequest r ->
          r.getItems(i).hasLegacy() ? null : r.getItems(i).getCiphertext();
      case ReIndexBatchRequest r -> r.getItems(i).getCiphertext();
      default -> throw new IllegalStateException("not a batch to decrypt: " + kind);
    };
  }

  private String expectedKeyOf(int i) {
    return switch (message) {
      case DecryptBatchRequest r -> expectedKey(r.getItems(i).getExpectedKey(), r.getExpectedKey());
      case ReEncryptBatchRequest r ->
          expectedKey(r.getItems(i).getExpectedKey(), r.getExpectedKey());
      case ReIndexBatchRequest r -> expectedKey(r.getItems(i).getExpectedKey(), r.getExpectedKey());
      default -> throw new IllegalStateException("not a batch to decrypt: " + kind);
    };
  }

  @Override
  public String keyName() {
    String name = keyName;
    if (name == null) {
      name = shownKeyName();
      keyName = name;
    }
    return name;
  }

  private String shownKeyName() {
    return switch (kind) {
      case ENCRYPT, ENCRYPT_SUBJECT -> named(key);
      case DECRYPT, DECRYPT_BATCH -> fromHeader();
      case REWRAP, REWRAP_LEGACY, REWRAP_BATCH -> legacy != null ? fromLegacy() : rewrap();
      case REINDEX, REINDEX_BATCH -> rewrap();
      case FORMATTED_ENCRYPT, FORMATTED_DECRYPT, FORMATTED_REWRAP -> named(key);
      case OTHER -> message instanceof Message m ? byField(m) : NONE;
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
  private String rewrap() {
    String source = fromHeader();
    return key.isEmpty() ? source : source + "->" + named(key);
  }

  /**
   * {@code legacy->target} for a legacy rewrap: the legacy key, with its version if one is named.
   */
  private String fromLegacy() {
    String source = named(legacy.getKeyName());
    if (legacy.getKeyVersion() > 0 && EnvelopeHeader.isValidKeyName(source)) {
      source += "/v" + legacy.getKeyVersion();
    }
    return source + "->" + named(key);
  }

  private String fromHeader() {
    if (ciphertext.isEmpty()) {
      return NONE;
    }
    EnvelopeHeader parsed = header();
    if (parsed == null && TransitCiphertext.isTransit(ciphertext)) {
      // A Transit ciphertext is under the key its expected_key names.
      return expectedKey.endsWith("*") ? INVALID : named(expectedKey);
    }
    return parsed == null ? INVALID : parsed.versionedName();
  }

  private static String named(String name) {
    if (name.isEmpty()) {
      return NONE;
    }
    return EnvelopeHeader.isValidKeyName(name) ? name : INVALID;
  }

  /** The header of {@code ciphertext}, or null if it does not parse (it then fails at once). */
  private static EnvelopeHeader headerOrNull(String ciphertext) {
    EnvelopeHeader recent = Envelope.recentHeader(ciphertext);
    if (recent != null) {
      return recent;
    }
    try {
      return Envelope.peekHeader(ciphertext);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
