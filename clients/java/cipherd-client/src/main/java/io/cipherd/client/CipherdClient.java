package io.cipherd.client;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.ComputeIndexBatchItem;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexBatchResult;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.ComputeIndexResponse;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.GenerateDataKeyResponse;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.InspectResponse;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptResponse;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReIndexBatchItem;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.ReIndexBatchResult;
import io.cipherd.api.v1.ReIndexRequest;
import io.cipherd.api.v1.ReIndexResponse;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.grpc.CallCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A client of cipherd: encrypt, decrypt and rewrap, one at a time, in batches or as streams; blind
 * indexes; data keys and data-key files; key administration ({@link #keys()}) and the audit trail
 * ({@link #audit()}). Made by {@link #builder(String)}; thread-safe; close it to shut its channel
 * down.
 *
 * <p>Every call throws a {@link CipherdException} subclass chosen by the error's reason (e.g.
 * {@link DecryptionFailedException}, {@link NotFoundException}); the {@code ...Async} variants
 * complete exceptionally with the same. A batch or stream fails item by item: each {@link
 * ItemResult} holds its value or its error, and none is dropped.
 *
 * <pre>{@code
 * try (CipherdClient client = CipherdClient.builder("127.0.0.1:50051").build()) {
 *   String ciphertext = client.encrypt("demo", "hello".getBytes(UTF_8));
 *   byte[] plaintext = client.decrypt(ciphertext);
 * }
 * }</pre>
 */
public final class CipherdClient implements AutoCloseable {
  private static final byte[] NO_CONTEXT = new byte[0];

  private final ManagedChannel channel;
  private final CryptoServiceGrpc.CryptoServiceBlockingStub crypto;
  private final CryptoServiceGrpc.CryptoServiceFutureStub cryptoFutures;
  private final CryptoServiceGrpc.CryptoServiceStub cryptoStreams;
  private final KeyAdmin keys;
  private final AuditTrail audit;
  private final Subjects subjects;
  private final FormattedValues formatted;

  CipherdClient(ManagedChannel channel, CallCredentials credentials) {
    this.channel = channel;
    this.crypto = CryptoServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.cryptoFutures = CryptoServiceGrpc.newFutureStub(channel).withCallCredentials(credentials);
    this.cryptoStreams = CryptoServiceGrpc.newStub(channel).withCallCredentials(credentials);
    this.keys =
        new KeyAdmin(KeyAdminServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials));
    this.audit =
        new AuditTrail(AuditServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials));
    this.subjects =
        new Subjects(SubjectServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials));
    this.formatted =
        new FormattedValues(
            FormatPreservingServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials),
            FormatPreservingServiceGrpc.newStub(channel).withCallCredentials(credentials));
  }

  /** A builder of a client of the server at {@code target} ("host:port"). */
  public static CipherdClientBuilder builder(String target) {
    return new CipherdClientBuilder(target);
  }

  /** Key administration: create, rotate, policy, lifecycle, retirement. */
  public KeyAdmin keys() {
    return keys;
  }

  /** The audit trail: hashing values as the trail does, checking checkpoints with the server. */
  public AuditTrail audit() {
    return audit;
  }

  /** Data subjects: erasing them (crypto-shredding one person's data), reading their state. */
  public Subjects subjects() {
    return subjects;
  }

  /**
   * Format-preserving values: encrypt, decrypt, rewrap and mask values that keep their shape, under
   * {@link Mode#FF1} keys.
   */
  public FormattedValues formatted() {
    return formatted;
  }

  // --- one value at a time ---

  /** Encrypts {@code plaintext} under the current version of {@code keyName}. */
  public String encrypt(String keyName, byte[] plaintext) {
    return encrypt(keyName, plaintext, NO_CONTEXT);
  }

  /**
   * Encrypts {@code plaintext} with {@code context}, the associated data every decryption must give
   * again byte for byte (AEAD modes only).
   */
  public String encrypt(String keyName, byte[] plaintext, byte[] context) {
    return encrypt(keyName, plaintext, context, null);
  }

  /**
   * Encrypts {@code plaintext} with {@code context} under {@code subject}'s own key (see {@link
   * Subject}); null for none.
   */
  public String encrypt(String keyName, byte[] plaintext, byte[] context, Subject subject) {
    return call(
        () -> crypto.encrypt(encryptRequest(keyName, plaintext, context, subject)).getCiphertext());
  }

  public CompletableFuture<String> encryptAsync(String keyName, byte[] plaintext, byte[] context) {
    return encryptAsync(keyName, plaintext, context, null);
  }

  public CompletableFuture<String> encryptAsync(
      String keyName, byte[] plaintext, byte[] context, Subject subject) {
    return Futures.of(
        cryptoFutures.encrypt(encryptRequest(keyName, plaintext, context, subject)),
        response -> response.getCiphertext());
  }

  /** Decrypts a ciphertext made without a context. */
  public byte[] decrypt(String ciphertext) {
    return decrypt(ciphertext, NO_CONTEXT, "");
  }

  /** Decrypts a ciphertext made with {@code context}. */
  public byte[] decrypt(String ciphertext, byte[] context) {
    return decrypt(ciphertext, context, "");
  }

  /**
   * Decrypts, refusing ({@link UnexpectedKeyException}, before anything is decrypted) a ciphertext
   * whose header names a key other than {@code expectedKey} (a name, or a prefix ending in '*').
   */
  public byte[] decrypt(String ciphertext, byte[] context, String expectedKey) {
    return call(
        () ->
            crypto
                .decrypt(decryptRequest(ciphertext, context, expectedKey))
                .getPlaintext()
                .toByteArray());
  }

  public CompletableFuture<byte[]> decryptAsync(
      String ciphertext, byte[] context, String expectedKey) {
    return Futures.of(
        cryptoFutures.decrypt(decryptRequest(ciphertext, context, expectedKey)),
        response -> response.getPlaintext().toByteArray());
  }

  /**
   * Rewraps a ciphertext under the current version of {@code keyName} ("" for its own key) without
   * the plaintext leaving the server.
   */
  public Rewrapped reEncrypt(
      String ciphertext, byte[] context, String keyName, String expectedKey) {
    return call(
        () ->
            rewrapped(
                crypto.reEncrypt(reEncryptRequest(ciphertext, context, keyName, expectedKey))));
  }

  public CompletableFuture<Rewrapped> reEncryptAsync(
      String ciphertext, byte[] context, String keyName, String expectedKey) {
    return Futures.of(
        cryptoFutures.reEncrypt(reEncryptRequest(ciphertext, context, keyName, expectedKey)),
        CipherdClient::rewrapped);
  }

  /**
   * Rewraps data encrypted before cipherd (proto/README.md, "Legacy ciphertexts") into the current
   * version of {@code keyName}, bound to {@code context}; the plaintext never leaves the server.
   */
  public Rewrapped reEncrypt(LegacyCiphertext legacy, byte[] context, String keyName) {
    return call(
        () ->
            rewrapped(
                crypto.reEncrypt(
                    ReEncryptRequest.newBuilder()
                        .setLegacy(legacy.toProto())
                        .setContext(ByteString.copyFrom(context))
                        .setKeyName(keyName)
                        .build())));
  }

  /**
   * What the server says of a ciphertext's header (its key, version, mode) without decrypting it.
   */
  public Inspection inspect(String ciphertext) {
    return call(() -> inspection(crypto.inspect(inspectRequest(ciphertext))));
  }

  public CompletableFuture<Inspection> inspectAsync(String ciphertext) {
    return Futures.of(cryptoFutures.inspect(inspectRequest(ciphertext)), CipherdClient::inspection);
  }

  // --- batches: one call, one result per item, in order ---

  public List<ItemResult<String>> encryptBatch(String keyName, List<EncryptItem> items) {
    return encryptBatch(keyName, items, null);
  }

  /**
   * Encrypts each item; {@code subject} (null for none) is the subject of every item that names
   * none of its own, and its {@link Subject#renewingErased()} applies to every item's subject. An
   * item of an erased subject fails alone.
   */
  public List<ItemResult<String>> encryptBatch(
      String keyName, List<EncryptItem> items, Subject subject) {
    return call(
        () ->
            encryptResults(
                crypto
                    .encryptBatch(encryptBatchRequest(keyName, items, subject))
                    .getResultsList()));
  }

  public CompletableFuture<List<ItemResult<String>>> encryptBatchAsync(
      String keyName, List<EncryptItem> items) {
    return encryptBatchAsync(keyName, items, null);
  }

  public CompletableFuture<List<ItemResult<String>>> encryptBatchAsync(
      String keyName, List<EncryptItem> items, Subject subject) {
    return Futures.of(
        cryptoFutures.encryptBatch(encryptBatchRequest(keyName, items, subject)),
        response -> encryptResults(response.getResultsList()));
  }

  /** Decrypts each item; {@code expectedKey} ("" for none) applies to items that name none. */
  public List<ItemResult<byte[]>> decryptBatch(List<CiphertextItem> items, String expectedKey) {
    return call(
        () ->
            decryptResults(
                crypto.decryptBatch(decryptBatchRequest(items, expectedKey)).getResultsList()));
  }

  public CompletableFuture<List<ItemResult<byte[]>>> decryptBatchAsync(
      List<CiphertextItem> items, String expectedKey) {
    return Futures.of(
        cryptoFutures.decryptBatch(decryptBatchRequest(items, expectedKey)),
        response -> decryptResults(response.getResultsList()));
  }

  /** Rewraps each item into {@code keyName} ("" keeps each ciphertext's own key). */
  public List<ItemResult<Rewrapped>> reEncryptBatch(
      List<CiphertextItem> items, String keyName, String expectedKey) {
    return call(
        () ->
            rewrapResults(
                crypto
                    .reEncryptBatch(reEncryptBatchRequest(items, keyName, expectedKey))
                    .getResultsList()));
  }

  public CompletableFuture<List<ItemResult<Rewrapped>>> reEncryptBatchAsync(
      List<CiphertextItem> items, String keyName, String expectedKey) {
    return Futures.of(
        cryptoFutures.reEncryptBatch(reEncryptBatchRequest(items, keyName, expectedKey)),
        response -> rewrapResults(response.getResultsList()));
  }

  // --- streams: unbounded items, resumable after the last reference read ---

  /**
   * Encrypts items as they come, under {@code keyName} (or each item's own); {@code resumeAfter}
   * (null for none) skips the items up to and including that reference. See {@link ItemStream}.
   */
  public ItemStream<String> encryptStream(
      String keyName, Iterator<EncryptItem> items, String resumeAfter) {
    return encryptStream(keyName, items, null, resumeAfter);
  }

  /**
   * Encrypts items as they come, like {@link #encryptStream(String, Iterator, String)}; {@code
   * subject} (null for none) is the subject of every item that names none of its own, and its
   * {@link Subject#renewingErased()} applies to every item's subject.
   */
  public ItemStream<String> encryptStream(
      String keyName, Iterator<EncryptItem> items, Subject subject, String resumeAfter) {
    return ItemStream.start(
        cryptoStreams::encryptStream,
        items,
        item ->
            EncryptStreamRequest.newBuilder()
                .setReference(item.reference())
                .setKeyName(item.keyName().isEmpty() ? keyName : item.keyName())
                .setPlaintext(ByteString.copyFrom(item.plaintext()))
                .setContext(ByteString.copyFrom(item.context()))
                .setSubject(
                    item.subject().isEmpty() && subject != null ? subject.id() : item.subject())
                .setRenewErasedSubject(subject != null && subject.renewErased())
                .build(),
        EncryptStreamRequest::getReference,
        response -> encryptResult(response.getResult()),
        resumeAfter);
  }

  public ItemStream<byte[]> decryptStream(
      Iterator<CiphertextItem> items, String expectedKey, String resumeAfter) {
    return ItemStream.start(
        cryptoStreams::decryptStream,
        items,
        item ->
            DecryptStreamRequest.newBuilder()
                .setReference(item.reference())
                .setCiphertext(ciphertextOf(item))
                .setContext(ByteString.copyFrom(item.context()))
                .setExpectedKey(item.expectedKey().isEmpty() ? expectedKey : item.expectedKey())
                .build(),
        DecryptStreamRequest::getReference,
        response -> decryptResult(response.getResult()),
        resumeAfter);
  }

  /**
   * Rewraps items as they come into {@code keyName} (or each item's own; "" keeps the
   * ciphertext's).
   */
  public ItemStream<Rewrapped> reEncryptStream(
      Iterator<CiphertextItem> items, String keyName, String expectedKey, String resumeAfter) {
    return ItemStream.start(
        cryptoStreams::reEncryptStream,
        items,
        item -> reEncryptStreamRequest(item, keyName, expectedKey),
        ReEncryptStreamRequest::getReference,
        response -> rewrapResult(response.getResult()),
        resumeAfter);
  }

  // --- blind indexes ---

  /**
   * The blind index of {@code value} under the current version of the index key {@code keyName}.
   */
  public BlindIndex computeIndex(String keyName, byte[] value, Normalization normalization) {
    return computeIndex(keyName, value, normalization, false);
  }

  /**
   * The blind index of {@code value}; with {@code allVersions}, also its index under every usable
   * version, for lookups across a rotation.
   */
  public BlindIndex computeIndex(
      String keyName, byte[] value, Normalization normalization, boolean allVersions) {
    return call(
        () ->
            blindIndex(
                crypto.computeIndex(
                    computeIndexRequest(keyName, value, normalization, allVersions))));
  }

  public CompletableFuture<BlindIndex> computeIndexAsync(
      String keyName, byte[] value, Normalization normalization, boolean allVersions) {
    return Futures.of(
        cryptoFutures.computeIndex(computeIndexRequest(keyName, value, normalization, allVersions)),
        CipherdClient::blindIndex);
  }

  public List<ItemResult<byte[]>> computeIndexBatch(
      String keyName, List<IndexItem> items, Normalization normalization) {
    ComputeIndexBatchRequest.Builder request =
        ComputeIndexBatchRequest.newBuilder()
            .setKeyName(keyName)
            .setNormalization(normalization.toProto());
    for (IndexItem item : items) {
      request.addItems(
          ComputeIndexBatchItem.newBuilder()
              .setReference(item.reference())
              .setValue(ByteString.copyFrom(item.value())));
    }
    return call(
        () ->
            crypto.computeIndexBatch(request.build()).getResultsList().stream()
                .map(CipherdClient::indexResult)
                .toList());
  }

  /**
   * The blind index of a ciphertext's plaintext under the index key {@code indexKeyName}, computed
   * inside the server: the plaintext never reaches the caller.
   */
  public ReIndexed reIndex(
      String indexKeyName, String ciphertext, byte[] context, Normalization normalization) {
    ReIndexResponse response =
        call(
            () ->
                crypto.reIndex(
                    ReIndexRequest.newBuilder()
                        .setIndexKeyName(indexKeyName)
                        .setCiphertext(ciphertext)
                        .setContext(ByteString.copyFrom(context))
                        .setNormalization(normalization.toProto())
                        .build()));
    return new ReIndexed(
        response.getIndex().toByteArray(),
        response.getKeyVersion(),
        response.getSourceKeyVersion());
  }

  public List<ItemResult<ReIndexed>> reIndexBatch(
      String indexKeyName, List<CiphertextItem> items, Normalization normalization) {
    ReIndexBatchRequest.Builder request =
        ReIndexBatchRequest.newBuilder()
            .setIndexKeyName(indexKeyName)
            .setNormalization(normalization.toProto());
    for (CiphertextItem item : items) {
      request.addItems(
          ReIndexBatchItem.newBuilder()
              .setReference(item.reference())
              .setCiphertext(ciphertextOf(item))
              .setContext(ByteString.copyFrom(item.context()))
              .setExpectedKey(item.expectedKey()));
    }
    return call(
        () ->
            crypto.reIndexBatch(request.build()).getResultsList().stream()
                .map(CipherdClient::reIndexResult)
                .toList());
  }

  // --- data keys and data-key files ---

  /**
   * A fresh data key wrapped by {@code keyName}; {@code keySizeBits} 0 for the server's default
   * (256), {@code omitPlaintext} to get only the wrapped key.
   */
  public DataKey generateDataKey(
      String keyName, int keySizeBits, byte[] context, boolean omitPlaintext) {
    return generateDataKey(keyName, keySizeBits, context, omitPlaintext, null);
  }

  /**
   * A fresh data key wrapped under {@code subject}'s own key (null for none): erasing the subject
   * makes the wrapped key, and all it encrypted, unrecoverable.
   */
  public DataKey generateDataKey(
      String keyName, int keySizeBits, byte[] context, boolean omitPlaintext, Subject subject) {
    return call(
        () ->
            dataKey(
                crypto.generateDataKey(
                    dataKeyRequest(keyName, keySizeBits, context, omitPlaintext, subject))));
  }

  public CompletableFuture<DataKey> generateDataKeyAsync(
      String keyName, int keySizeBits, byte[] context, boolean omitPlaintext) {
    return generateDataKeyAsync(keyName, keySizeBits, context, omitPlaintext, null);
  }

  public CompletableFuture<DataKey> generateDataKeyAsync(
      String keyName, int keySizeBits, byte[] context, boolean omitPlaintext, Subject subject) {
    return Futures.of(
        cryptoFutures.generateDataKey(
            dataKeyRequest(keyName, keySizeBits, context, omitPlaintext, subject)),
        CipherdClient::dataKey);
  }

  /**
   * Encrypts {@code source} into {@code destination} in the data-key file format (proto/README.md,
   * "Data-key file format"): one data key wrapped by {@code keyName}, chunks sealed locally.
   * Neither stream is closed.
   */
  public FileResult encryptFile(
      String keyName, InputStream source, OutputStream destination, byte[] context)
      throws java.io.IOException {
    DataKey key = generateDataKey(keyName, 256, context, false);
    return DataKeyFile.encrypt(key, source, destination);
  }

  /**
   * Decrypts a data-key file: its data key unwrapped by the server (refused unless under {@code
   * expectedKey}, "" for any), its chunks opened locally. Throws {@link InvalidFileException} for a
   * file cut short or changed; plaintext written before that must be thrown away.
   */
  public FileResult decryptFile(
      InputStream source, OutputStream destination, byte[] context, String expectedKey)
      throws java.io.IOException {
    return DataKeyFile.decrypt(
        source,
        destination,
        wrappedKey -> {
          Envelope envelope = Envelope.parse(wrappedKey);
          return new DataKeyFile.Unwrapped(
              decrypt(wrappedKey, context, expectedKey), envelope.keyName(), envelope.keyVersion());
        });
  }

  /**
   * Copies a data-key file with its data key rewrapped into the current version of {@code keyName}
   * ("" for its own key) by the server; the chunks are copied as they are. Neither stream is
   * closed.
   */
  public Rewrapped rewrapFileKey(
      InputStream source,
      OutputStream destination,
      byte[] context,
      String keyName,
      String expectedKey)
      throws java.io.IOException {
    return DataKeyFile.rewrap(
        source, destination, wrappedKey -> reEncrypt(wrappedKey, context, keyName, expectedKey));
  }

  /** Shuts the channel down, waiting up to 5 seconds for calls in flight. */
  @Override
  public void close() {
    channel.shutdown();
    try {
      if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
        channel.shutdownNow();
      }
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  // --- requests and results ---

  static <T> T call(Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      throw Errors.fromGrpc(e);
    }
  }

  private static EncryptRequest encryptRequest(
      String keyName, byte[] plaintext, byte[] context, Subject subject) {
    return EncryptRequest.newBuilder()
        .setKeyName(keyName)
        .setPlaintext(ByteString.copyFrom(plaintext))
        .setContext(ByteString.copyFrom(context))
        .setSubject(subject == null ? "" : subject.id())
        .setRenewErasedSubject(subject != null && subject.renewErased())
        .build();
  }

  private static DecryptRequest decryptRequest(
      String ciphertext, byte[] context, String expectedKey) {
    return DecryptRequest.newBuilder()
        .setCiphertext(ciphertext)
        .setContext(ByteString.copyFrom(context))
        .setExpectedKey(expectedKey)
        .build();
  }

  private static ReEncryptRequest reEncryptRequest(
      String ciphertext, byte[] context, String keyName, String expectedKey) {
    return ReEncryptRequest.newBuilder()
        .setCiphertext(ciphertext)
        .setContext(ByteString.copyFrom(context))
        .setKeyName(keyName)
        .setExpectedKey(expectedKey)
        .build();
  }

  private static EncryptBatchRequest encryptBatchRequest(
      String keyName, List<EncryptItem> items, Subject subject) {
    EncryptBatchRequest.Builder request =
        EncryptBatchRequest.newBuilder()
            .setKeyName(keyName)
            .setSubject(subject == null ? "" : subject.id())
            .setRenewErasedSubject(subject != null && subject.renewErased());
    for (EncryptItem item : items) {
      request.addItems(
          EncryptBatchItem.newBuilder()
              .setReference(item.reference())
              .setPlaintext(ByteString.copyFrom(item.plaintext()))
              .setContext(ByteString.copyFrom(item.context()))
              .setSubject(item.subject()));
    }
    return request.build();
  }

  private static DecryptBatchRequest decryptBatchRequest(
      List<CiphertextItem> items, String expectedKey) {
    DecryptBatchRequest.Builder request =
        DecryptBatchRequest.newBuilder().setExpectedKey(expectedKey);
    for (CiphertextItem item : items) {
      request.addItems(
          DecryptBatchItem.newBuilder()
              .setReference(item.reference())
              .setCiphertext(ciphertextOf(item))
              .setContext(ByteString.copyFrom(item.context()))
              .setExpectedKey(item.expectedKey()));
    }
    return request.build();
  }

  private static InspectRequest inspectRequest(String ciphertext) {
    return InspectRequest.newBuilder().setCiphertext(ciphertext).build();
  }

  private static Inspection inspection(InspectResponse response) {
    return new Inspection(
        response.getKeyName(),
        response.getKeyVersion(),
        Mode.fromProto(response.getMode()),
        response.getCurrentVersion(),
        response.getBehindCurrent(),
        response.getSubjectBound());
  }

  private static ReEncryptBatchRequest reEncryptBatchRequest(
      List<CiphertextItem> items, String keyName, String expectedKey) {
    ReEncryptBatchRequest.Builder request =
        ReEncryptBatchRequest.newBuilder().setKeyName(keyName).setExpectedKey(expectedKey);
    for (CiphertextItem item : items) {
      ReEncryptBatchItem.Builder batchItem =
          ReEncryptBatchItem.newBuilder()
              .setReference(item.reference())
              .setContext(ByteString.copyFrom(item.context()))
              .setExpectedKey(item.expectedKey());
      if (item.isLegacy()) {
        batchItem.setLegacy(item.legacyCiphertext().toProto());
      } else {
        batchItem.setCiphertext(item.ciphertext());
      }
      request.addItems(batchItem);
    }
    return request.build();
  }

  private static List<ItemResult<Rewrapped>> rewrapResults(List<ReEncryptBatchResult> results) {
    return results.stream().map(CipherdClient::rewrapResult).toList();
  }

  private static ComputeIndexRequest computeIndexRequest(
      String keyName, byte[] value, Normalization normalization, boolean allVersions) {
    return ComputeIndexRequest.newBuilder()
        .setKeyName(keyName)
        .setValue(ByteString.copyFrom(value))
        .setNormalization(normalization.toProto())
        .setAllVersions(allVersions)
        .build();
  }

  private static BlindIndex blindIndex(ComputeIndexResponse response) {
    Map<Integer, byte[]> versions = new LinkedHashMap<>();
    response
        .getVersionsList()
        .forEach(v -> versions.put(v.getKeyVersion(), v.getIndex().toByteArray()));
    // newest first, as the server lists them: a LinkedHashMap keeps that order
    return new BlindIndex(
        response.getIndex().toByteArray(),
        response.getKeyVersion(),
        java.util.Collections.unmodifiableMap(versions));
  }

  private static GenerateDataKeyRequest dataKeyRequest(
      String keyName, int keySizeBits, byte[] context, boolean omitPlaintext, Subject subject) {
    return GenerateDataKeyRequest.newBuilder()
        .setKeyName(keyName)
        .setKeySizeBits(keySizeBits)
        .setContext(ByteString.copyFrom(context))
        .setOmitPlaintext(omitPlaintext)
        .setSubject(subject == null ? "" : subject.id())
        .setRenewErasedSubject(subject != null && subject.renewErased())
        .build();
  }

  private static DataKey dataKey(GenerateDataKeyResponse response) {
    // omitPlaintext: the server sends no key bytes, and a data key is never empty
    return new DataKey(
        response.getPlaintextKey().isEmpty()
            ? Optional.empty()
            : Optional.of(response.getPlaintextKey().toByteArray()),
        response.getWrappedKey(),
        response.getKeyVersion());
  }

  private static ReEncryptStreamRequest reEncryptStreamRequest(
      CiphertextItem item, String keyName, String expectedKey) {
    ReEncryptStreamRequest.Builder request =
        ReEncryptStreamRequest.newBuilder()
            .setReference(item.reference())
            .setContext(ByteString.copyFrom(item.context()))
            .setKeyName(item.keyName().isEmpty() ? keyName : item.keyName())
            .setExpectedKey(item.expectedKey().isEmpty() ? expectedKey : item.expectedKey());
    if (item.isLegacy()) {
      request.setLegacy(item.legacyCiphertext().toProto());
    } else {
      request.setCiphertext(item.ciphertext());
    }
    return request.build();
  }

  /** Decrypting and indexing take cipherd ciphertexts only; a legacy item is rewrapped first. */
  private static String ciphertextOf(CiphertextItem item) {
    if (item.isLegacy()) {
      throw new IllegalArgumentException(
          "item " + item.reference() + ": a legacy ciphertext can only be rewrapped (reEncrypt)");
    }
    return item.ciphertext();
  }

  private static Rewrapped rewrapped(ReEncryptResponse response) {
    return new Rewrapped(
        response.getCiphertext(), response.getKeyVersion(), response.getSourceKeyVersion());
  }

  private static List<ItemResult<String>> encryptResults(List<EncryptBatchResult> results) {
    return results.stream().map(CipherdClient::encryptResult).toList();
  }

  private static List<ItemResult<byte[]>> decryptResults(List<DecryptBatchResult> results) {
    return results.stream().map(CipherdClient::decryptResult).toList();
  }

  private static ItemResult<String> encryptResult(EncryptBatchResult result) {
    return result.hasError()
        ? ItemResult.failed(result.getReference(), Errors.fromItem(result.getError()))
        : ItemResult.ok(result.getReference(), result.getCiphertext(), result.getKeyVersion());
  }

  private static ItemResult<byte[]> decryptResult(DecryptBatchResult result) {
    return result.hasError()
        ? ItemResult.failed(result.getReference(), Errors.fromItem(result.getError()))
        : ItemResult.ok(
            result.getReference(), result.getPlaintext().toByteArray(), result.getKeyVersion());
  }

  private static ItemResult<Rewrapped> rewrapResult(ReEncryptBatchResult result) {
    return result.hasError()
        ? ItemResult.failed(result.getReference(), Errors.fromItem(result.getError()))
        : ItemResult.ok(
            result.getReference(),
            new Rewrapped(
                result.getCiphertext(), result.getKeyVersion(), result.getSourceKeyVersion()),
            result.getKeyVersion());
  }

  private static ItemResult<byte[]> indexResult(ComputeIndexBatchResult result) {
    return result.hasError()
        ? ItemResult.failed(result.getReference(), Errors.fromItem(result.getError()))
        : ItemResult.ok(
            result.getReference(), result.getIndex().toByteArray(), result.getKeyVersion());
  }

  private static ItemResult<ReIndexed> reIndexResult(ReIndexBatchResult result) {
    return result.hasError()
        ? ItemResult.failed(result.getReference(), Errors.fromItem(result.getError()))
        : ItemResult.ok(
            result.getReference(),
            new ReIndexed(
                result.getIndex().toByteArray(),
                result.getKeyVersion(),
                result.getSourceKeyVersion()),
            result.getKeyVersion());
  }
}
