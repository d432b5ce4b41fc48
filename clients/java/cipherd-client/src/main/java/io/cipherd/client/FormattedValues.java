package io.cipherd.client;

import static io.cipherd.client.CipherdClient.call;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedBatchItem;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedResponse;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.ReEncryptFormattedBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.ReEncryptFormattedResponse;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.grpc.Status;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Format-preserving values (proto/README.md, "Format-preserving values"): values that keep their
 * shape under a format-preserving key ({@link Mode#FF1}). They carry no header, so every answer is
 * a {@link FormattedValue} (value and key version) and every call that reads a ciphertext takes one
 * back. {@code context} names where the value lives (e.g. "users.card_number" as bytes): it is
 * hashed into FF1's tweak and needed again to decrypt. Got from {@link CipherdClient#formatted()}.
 */
public final class FormattedValues {
  private final FormatPreservingServiceGrpc.FormatPreservingServiceBlockingStub stub;
  private final FormatPreservingServiceGrpc.FormatPreservingServiceStub streams;

  FormattedValues(
      FormatPreservingServiceGrpc.FormatPreservingServiceBlockingStub stub,
      FormatPreservingServiceGrpc.FormatPreservingServiceStub streams) {
    this.stub = stub;
    this.streams = streams;
  }

  /** {@code value} encrypted with the key's current version, and the version to store beside it. */
  public FormattedValue encrypt(String keyName, String value, byte[] context) {
    EncryptFormattedRequest request =
        EncryptFormattedRequest.newBuilder()
            .setKeyName(keyName)
            .setValue(value)
            .setContext(ByteString.copyFrom(context))
            .build();
    EncryptFormattedResponse response = call(() -> stub.encryptFormatted(request));
    return new FormattedValue(response.getValue(), response.getKeyVersion());
  }

  /**
   * The plaintext of {@code ciphertext} under the version it names. A wrong version or context
   * gives a wrong value of the right shape, never an error: FF1 cannot tell.
   */
  public String decrypt(String keyName, FormattedValue ciphertext, byte[] context) {
    DecryptFormattedRequest request =
        DecryptFormattedRequest.newBuilder()
            .setKeyName(keyName)
            .setValue(ciphertext.value())
            .setContext(ByteString.copyFrom(context))
            .setKeyVersion(ciphertext.keyVersion())
            .build();
    return call(() -> stub.decryptFormatted(request)).getValue();
  }

  /**
   * {@code ciphertext} moved to the key's current version under the same context, the plaintext
   * never leaving the server (needs the rewrap operation, not decrypt).
   */
  public FormattedRewrapped reEncrypt(String keyName, FormattedValue ciphertext, byte[] context) {
    ReEncryptFormattedRequest request =
        ReEncryptFormattedRequest.newBuilder()
            .setKeyName(keyName)
            .setValue(ciphertext.value())
            .setContext(ByteString.copyFrom(context))
            .setKeyVersion(ciphertext.keyVersion())
            .build();
    ReEncryptFormattedResponse response = call(() -> stub.reEncryptFormatted(request));
    return new FormattedRewrapped(
        new FormattedValue(response.getValue(), response.getKeyVersion()),
        response.getSourceKeyVersion());
  }

  /**
   * The display mask of {@code ciphertext}'s plaintext (e.g. "•••• •••• •••• 4242"), never the
   * plaintext: needs the mask operation, not decrypt.
   */
  public String mask(String keyName, FormattedValue ciphertext, byte[] context) {
    MaskFormattedRequest request =
        MaskFormattedRequest.newBuilder()
            .setKeyName(keyName)
            .setValue(ciphertext.value())
            .setContext(ByteString.copyFrom(context))
            .setKeyVersion(ciphertext.keyVersion())
            .build();
    return call(() -> stub.maskFormatted(request)).getMasked();
  }

  /**
   * {@link #encrypt} of each item ({@code context} for every item without its own): one result per
   * item, in order, an item's failure its own.
   */
  public List<ItemResult<FormattedValue>> encryptAll(
      String keyName, List<FormattedPlainItem> items, byte[] context) {
    EncryptFormattedBatchRequest.Builder request =
        EncryptFormattedBatchRequest.newBuilder()
            .setKeyName(keyName)
            .setContext(ByteString.copyFrom(context));
    for (FormattedPlainItem item : items) {
      request.addItems(
          EncryptFormattedBatchItem.newBuilder()
              .setReference(item.reference())
              .setValue(item.value())
              .setContext(ByteString.copyFrom(item.context())));
    }
    List<FormattedBatchResult> results =
        call(() -> stub.encryptFormattedBatch(request.build())).getResultsList();
    return results(results, items.size(), r -> new FormattedValue(r.getValue(), r.getKeyVersion()));
  }

  /** The plaintext of each item under its own version (the result's keyVersion), in order. */
  public List<ItemResult<String>> decryptAll(
      String keyName, List<FormattedItem> items, byte[] context) {
    DecryptFormattedBatchRequest.Builder request =
        DecryptFormattedBatchRequest.newBuilder()
            .setKeyName(keyName)
            .setContext(ByteString.copyFrom(context));
    items.forEach(item -> request.addItems(batchItem(item)));
    List<FormattedBatchResult> results =
        call(() -> stub.decryptFormattedBatch(request.build())).getResultsList();
    return results(results, items.size(), FormattedBatchResult::getValue);
  }

  /** {@link #reEncrypt} of each item, in order. */
  public List<ItemResult<FormattedRewrapped>> reEncryptAll(
      String keyName, List<FormattedItem> items, byte[] context) {
    ReEncryptFormattedBatchRequest.Builder request =
        ReEncryptFormattedBatchRequest.newBuilder()
            .setKeyName(keyName)
            .setContext(ByteString.copyFrom(context));
    items.forEach(item -> request.addItems(batchItem(item)));
    List<FormattedBatchResult> results =
        call(() -> stub.reEncryptFormattedBatch(request.build())).getResultsList();
    return results(
        results,
        items.size(),
        r ->
            new FormattedRewrapped(
                new FormattedValue(r.getValue(), r.getKeyVersion()), r.getSourceKeyVersion()));
  }

  // --- streams: unbounded items, resumable after the last reference read, as CipherdClient's ---

  /**
   * {@link #encrypt} of each item as it comes, through one EncryptFormattedStream ({@code context}
   * for every item without its own): one result per item, in order, an item's failure its own.
   * {@code resumeAfter} (null for none) skips the items up to and including that reference. See
   * {@link ItemStream}.
   */
  public ItemStream<FormattedValue> encryptStream(
      String keyName, Iterator<FormattedPlainItem> items, byte[] context, String resumeAfter) {
    return ItemStream.start(
        streams::encryptFormattedStream,
        items,
        item ->
            EncryptFormattedStreamRequest.newBuilder()
                .setReference(item.reference())
                .setKeyName(keyName)
                .setValue(item.value())
                .setContext(contextOf(item.context(), context))
                .build(),
        EncryptFormattedStreamRequest::getReference,
        response ->
            result(response.getResult(), r -> new FormattedValue(r.getValue(), r.getKeyVersion())),
        resumeAfter);
  }

  /**
   * The plaintext of each item under its own version as it comes, through one
   * DecryptFormattedStream, like {@link #encryptStream}.
   */
  public ItemStream<String> decryptStream(
      String keyName, Iterator<FormattedItem> items, byte[] context, String resumeAfter) {
    return ItemStream.start(
        streams::decryptFormattedStream,
        items,
        item ->
            DecryptFormattedStreamRequest.newBuilder()
                .setReference(item.reference())
                .setKeyName(keyName)
                .setValue(item.ciphertext().value())
                .setContext(contextOf(item.context(), context))
                .setKeyVersion(item.ciphertext().keyVersion())
                .build(),
        DecryptFormattedStreamRequest::getReference,
        response -> result(response.getResult(), FormattedBatchResult::getValue),
        resumeAfter);
  }

  /**
   * {@link #reEncrypt} of each item as it comes, through one ReEncryptFormattedStream, like {@link
   * #encryptStream}: how to move a whole column to the key's current version after a rotation.
   */
  public ItemStream<FormattedRewrapped> reEncryptStream(
      String keyName, Iterator<FormattedItem> items, byte[] context, String resumeAfter) {
    return ItemStream.start(
        streams::reEncryptFormattedStream,
        items,
        item ->
            ReEncryptFormattedStreamRequest.newBuilder()
                .setReference(item.reference())
                .setKeyName(keyName)
                .setValue(item.ciphertext().value())
                .setContext(contextOf(item.context(), context))
                .setKeyVersion(item.ciphertext().keyVersion())
                .build(),
        ReEncryptFormattedStreamRequest::getReference,
        response ->
            result(
                response.getResult(),
                r ->
                    new FormattedRewrapped(
                        new FormattedValue(r.getValue(), r.getKeyVersion()),
                        r.getSourceKeyVersion())),
        resumeAfter);
  }

  /** An item's context, else the call's: a stream request has no call-wide context. */
  private static ByteString contextOf(byte[] item, byte[] call) {
    return ByteString.copyFrom(item.length > 0 || call == null ? item : call);
  }

  private static <T> ItemResult<T> result(
      FormattedBatchResult r, Function<FormattedBatchResult, T> value) {
    return r.hasError()
        ? ItemResult.<T>failed(r.getReference(), Errors.fromItem(r.getError()))
        : ItemResult.ok(r.getReference(), value.apply(r), r.getKeyVersion());
  }

  /**
   * The item with its own version: the batch-wide key_version is never sent, so that no item falls
   * back to another's version.
   */
  private static FormattedBatchItem batchItem(FormattedItem item) {
    return FormattedBatchItem.newBuilder()
        .setReference(item.reference())
        .setValue(item.ciphertext().value())
        .setContext(ByteString.copyFrom(item.context()))
        .setKeyVersion(item.ciphertext().keyVersion())
        .build();
  }

  private static <T> List<ItemResult<T>> results(
      List<FormattedBatchResult> results, int items, Function<FormattedBatchResult, T> value) {
    if (results.size() != items) {
      throw Errors.of(
          Status.Code.INTERNAL,
          "",
          "the server answered " + results.size() + " results for " + items + " items",
          Map.of());
    }
    return results.stream().map(r -> result(r, value)).toList();
  }
}
