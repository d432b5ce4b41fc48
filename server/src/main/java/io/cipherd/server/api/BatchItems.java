package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResponse;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResponse;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.transit.TransitCiphertext;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.Decrypted;
import io.cipherd.server.engine.Encrypted;
import io.cipherd.server.engine.ExpectedKey;
import io.cipherd.server.engine.ReEncrypted;
import io.cipherd.server.engine.SubjectKeysForEncryption;
import io.cipherd.server.security.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs batch and stream items one by one. Every item gets exactly one result, in request order: its
 * output or its own error; a failing item never fails or drops the others.
 */
final class BatchItems {
  private final CryptoEngine engine;
  private final PlaintextLimit limit;

  BatchItems(CryptoEngine engine, PlaintextLimit limit) {
    this.engine = engine;
    this.limit = limit;
  }

  /**
   * Throws unless the results of {@code request}, and a DecryptBatch or ReEncryptBatch of them, fit
   * in a message: checked before any work, as the request's fault.
   */
  void checkFits(EncryptBatchRequest request) {
    EncryptBatchItem[] items = items(request);
    limit.checkBatch(
        new PlaintextLimit.BatchItemSizes() {
          @Override
          public int count() {
            return items.length;
          }

          @Override
          public int plaintext(int i) {
            return items[i].getPlaintext().size();
          }

          @Override
          public int context(int i) {
            return items[i].getContext().size();
          }

          @Override
          public String reference(int i) {
            return items[i].getReference();
          }
        });
  }

  /**
   * A batch's items as an array, read once per call: protobuf hands them out through {@code
   * Collections.unmodifiableList}, whose {@code get} and {@code size} are one shared call site for
   * every such list in the JVM. With a few kinds of list behind it (the OpenTelemetry SDK's, with
   * tracing on) that site stops being inlined, and each item paid for it several times over: 49 ns
   * of a traced server's 700 ns EncryptBatch item against 23 ns with tracing off, about 10 ns in
   * either once read here (docs/tracing.md, Cost).
   */
  private static EncryptBatchItem[] items(EncryptBatchRequest request) {
    return request.getItemsList().toArray(new EncryptBatchItem[0]);
  }

  private static DecryptBatchItem[] items(DecryptBatchRequest request) {
    return request.getItemsList().toArray(new DecryptBatchItem[0]);
  }

  private static ReEncryptBatchItem[] items(ReEncryptBatchRequest request) {
    return request.getItemsList().toArray(new ReEncryptBatchItem[0]);
  }

  EncryptBatchResponse encrypt(EncryptBatchRequest request) {
    engine.checkBatch(Operation.ENCRYPT, request.getKeyName());
    return engine.inBatch(batch -> encrypt(batch, limit, request));
  }

  DecryptBatchResponse decrypt(DecryptBatchRequest request) {
    // Once for the batch: a bad expected_key of its own is the request's fault, not each item's.
    ExpectedKey expected = ExpectedKey.parse(request.getExpectedKey(), "expected_key");
    return engine.inBatch(batch -> decrypt(batch, request, expected));
  }

  ReEncryptBatchResponse reEncrypt(ReEncryptBatchRequest request) {
    if (!request.getKeyName().isEmpty()) {
      // Once for the batch: a bad target name is the request's fault, not each item's.
      EnvelopeHeader.checkKeyName(request.getKeyName());
    }
    ExpectedKey expected = ExpectedKey.parse(request.getExpectedKey(), "expected_key");
    return engine.inBatch(batch -> reEncrypt(batch, limit, request, expected));
  }

  /**
   * One rewrap with {@code engine} (a stream's leased one), as a batch result, built with {@code
   * result} (cleared first), so a batch reuses one builder for all its items; for ReEncryptStream,
   * item by item. {@code legacy} is the item's legacy ciphertext, or null when it has none; {@code
   * header} is {@code ciphertext}'s as already parsed, or null; {@code targetField} names where the
   * target key comes from, for the error of a legacy item without one. The item's own {@code
   * expectedKey}, when set, wins over {@code batchExpected}.
   */
  static ReEncryptBatchResult reEncrypt(
      CryptoEngine engine,
      PlaintextLimit limit,
      ReEncryptBatchResult.Builder result,
      String reference,
      EnvelopeHeader header,
      String ciphertext,
      LegacyCiphertext legacy,
      ByteString context,
      String targetKey,
      String targetField,
      String expectedKey,
      ExpectedKey batchExpected) {
    result.clear().setReference(reference);
    try {
      ExpectedKey expected = ExpectedKey.parse(expectedKey, batchExpected, "expected_key");
      ReEncrypted rewrapped =
          legacy == null
              ? engine.reEncrypt(header, ciphertext, context, targetKey, expected)
              : engine.reEncryptLegacy(
                  LegacyProtos.rewrapItem(legacy, ciphertext, targetKey, targetField),
                  context,
                  targetKey,
                  expected);
      limit.checkRewrapped(rewrapped.encrypted().ciphertext().size(), context.size(), reference);
      result
          .setCiphertextBytes(rewrapped.encrypted().ciphertext())
          .setKeyVersion(rewrapped.encrypted().keyVersion())
          .setSourceKeyVersion(rewrapped.sourceVersion());
    } catch (RuntimeException e) {
      result.setError(StatusMapper.toItemError(e));
      if (legacy == null) {
        sourceVersion(ciphertext, result);
      } else {
        // The version asked for; 0 (the newest) stays 0, as for an unreadable header.
        result.setSourceKeyVersion(Math.max(0, legacy.getKeyVersion()));
      }
    }
    return result.build();
  }

  /**
   * One result builder for the whole batch, cleared per item, into a list of the batch's size:
   * addResultsBuilder() keeps a builder and a field-builder wrapper per item, and the list grew a
   * dozen times for 256 items (about -140 B per item in CryptoCallsBenchmark).
   */
  private static EncryptBatchResponse encrypt(
      CryptoEngine engine, PlaintextLimit limit, EncryptBatchRequest request) {
    EncryptBatchItem[] items = items(request);
    List<EncryptBatchResult> results = new ArrayList<>(items.length);
    EncryptBatchResult.Builder result = EncryptBatchResult.newBuilder();
    SubjectKeysForEncryption subjects = null;
    RuntimeException subjectsFailed = null;
    List<String> subjectIds = subjectIds(request, items);
    if (!subjectIds.isEmpty()) {
      try {
        // All the batch's subjects at once: one store lookup, one creation for the new ones.
        subjects =
            engine.subjectKeysForEncryption(
                Operation.ENCRYPT,
                request.getKeyName(),
                subjectIds,
                request.getRenewErasedSubject());
      } catch (RuntimeException e) {
        subjectsFailed = e;
      }
    }
    int subjectBound = 0;
    for (EncryptBatchItem item : items) {
      result.clear().setReference(item.getReference());
      // The item's place among the subject-bound ones, which subjectIds listed in order.
      int subjectItem = subjectOf(request, item).isEmpty() ? -1 : subjectBound++;
      try {
        limit.check(item.getPlaintext().size(), item.getContext().size(), item.getReference());
        if (subjectItem >= 0 && subjectsFailed != null) {
          throw subjectsFailed;
        }
        Encrypted encrypted =
            subjectItem < 0
                ? engine.encrypt(request.getKeyName(), 0, item.getPlaintext(), item.getContext())
                : engine.encrypt(subjects, subjectItem, item.getPlaintext(), item.getContext());
        result.setCiphertextBytes(encrypted.ciphertext()).setKeyVersion(encrypted.keyVersion());
      } catch (RuntimeException e) {
        result.setError(StatusMapper.toItemError(e));
      }
      results.add(result.build());
    }
    return EncryptBatchResponse.newBuilder().addAllResults(results).build();
  }

  /** An item's subject: its own, else the batch's; empty for key-bound items. */
  private static String subjectOf(EncryptBatchRequest request, EncryptBatchItem item) {
    return item.getSubject().isEmpty() ? request.getSubject() : item.getSubject();
  }

  /** The subject of every subject-bound item of {@code items}, in order (repeats included). */
  private static List<String> subjectIds(EncryptBatchRequest request, EncryptBatchItem[] items) {
    List<String> ids = new ArrayList<>();
    for (EncryptBatchItem item : items) {
      String subject = subjectOf(request, item);
      if (!subject.isEmpty()) {
        ids.add(subject);
      }
    }
    return ids;
  }

  /**
   * As {@link #encrypt(CryptoEngine, PlaintextLimit, EncryptBatchRequest)}: one builder, a list of
   * the batch's size.
   */
  private static DecryptBatchResponse decrypt(
      CryptoEngine engine, DecryptBatchRequest request, ExpectedKey batchExpected) {
    DecryptBatchItem[] items = items(request);
    List<String> ciphertexts = new ArrayList<>(items.length);
    for (DecryptBatchItem item : items) {
      ciphertexts.add(item.getCiphertext());
    }
    // The subject keys of all subject-bound items in one store lookup, if any is not cached.
    engine.prefetchSubjectsWhenNeeded(ciphertexts);
    List<DecryptBatchResult> results = new ArrayList<>(items.length);
    DecryptBatchResult.Builder result = DecryptBatchResult.newBuilder();
    for (DecryptBatchItem item : items) {
      result.clear().setReference(item.getReference());
      try {
        Decrypted decrypted =
            engine.decrypt(
                item.getCiphertext(),
                item.getContext(),
                ExpectedKey.parse(item.getExpectedKey(), batchExpected, "expected_key"));
        // A fresh array that nothing else holds: wrapped, not copied again.
        result
            .setPlaintext(UnsafeByteOperations.unsafeWrap(decrypted.plaintext()))
            .setKeyVersion(decrypted.header().version());
      } catch (RuntimeException e) {
        result.setError(StatusMapper.toItemError(e));
      }
      results.add(result.build());
    }
    return DecryptBatchResponse.newBuilder().addAllResults(results).build();
  }

  /**
   * As {@link #encrypt(CryptoEngine, PlaintextLimit, EncryptBatchRequest)}: one builder, a list of
   * the batch's size.
   */
  private static ReEncryptBatchResponse reEncrypt(
      CryptoEngine engine,
      PlaintextLimit limit,
      ReEncryptBatchRequest request,
      ExpectedKey batchExpected) {
    ReEncryptBatchItem[] items = items(request);
    List<String> ciphertexts = new ArrayList<>(items.length);
    for (ReEncryptBatchItem item : items) {
      ciphertexts.add(item.getCiphertext());
    }
    engine.prefetchSubjectsWhenNeeded(ciphertexts);
    engine.prefetchRewrapTargetsWhenNeeded(request.getKeyName(), ciphertexts);
    List<ReEncryptBatchResult> results = new ArrayList<>(items.length);
    ReEncryptBatchResult.Builder result = ReEncryptBatchResult.newBuilder();
    for (ReEncryptBatchItem item : items) {
      results.add(
          reEncrypt(
              engine,
              limit,
              result,
              item.getReference(),
              null,
              item.getCiphertext(),
              item.hasLegacy() ? item.getLegacy() : null,
              item.getContext(),
              request.getKeyName(),
              "the batch's key_name",
              item.getExpectedKey(),
              batchExpected));
    }
    return ReEncryptBatchResponse.newBuilder().addAllResults(results).build();
  }

  private static void sourceVersion(String ciphertext, ReEncryptBatchResult.Builder result) {
    try {
      result.setSourceKeyVersion(
          TransitCiphertext.isTransit(ciphertext)
              ? TransitCiphertext.parse(ciphertext).version()
              : Envelope.peekHeader(ciphertext).version());
    } catch (RuntimeException unreadable) {
      // The header itself was the problem; source_key_version stays 0 as documented.
    }
  }
}
