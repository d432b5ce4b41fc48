package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CreateKeyResponse;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedBatchResponse;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DecryptFormattedResponse;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedBatchResponse;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedResponse;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.ItemError;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.MaskFormattedResponse;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.ReEncryptFormattedResponse;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamResponse;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Format-preserving values against an in-process fake of FormatPreservingService and CreateKey,
 * which records what each request carried (the real server cannot be asked); the real server's side
 * is in FormattedValuesTest.
 */
class FormattedValuesFakeTest {
  private static final byte[] COLUMN = "users.card".getBytes(StandardCharsets.UTF_8);
  private final List<Message> requests = new CopyOnWriteArrayList<>();

  /** The next stream call ends with UNAVAILABLE after that many answers (0: never), once. */
  private final AtomicInteger failStreamAfter = new AtomicInteger();

  private Server server;
  private CipherdClient client;

  private static String reverse(String s) {
    return new StringBuilder(s).reverse().toString();
  }

  private static FormattedBatchResult result(String reference, String value, int version) {
    if (value.equals("bad")) {
      return FormattedBatchResult.newBuilder()
          .setReference(reference)
          .setError(
              ItemError.newBuilder()
                  .setCode(Status.Code.INVALID_ARGUMENT.value())
                  .setReason("INVALID_ARGUMENT")
                  .setMessage("character 2 is not in the key's alphabet"))
          .build();
    }
    return FormattedBatchResult.newBuilder()
        .setReference(reference)
        .setValue(value)
        .setKeyVersion(version)
        .build();
  }

  /** Reverses values at version 3; refuses key_version 0 as the server does without a prefix. */
  private class FakeFormatted extends FormatPreservingServiceGrpc.FormatPreservingServiceImplBase {
    private boolean refuseVersionZero(int version, StreamObserver<?> out) {
      if (version == 0) {
        out.onError(
            Status.INVALID_ARGUMENT
                .withDescription(
                    "FF1 values carry no version: pass the key_version EncryptFormatted returned")
                .asRuntimeException());
        return true;
      }
      return false;
    }

    @Override
    public void encryptFormatted(
        EncryptFormattedRequest r, StreamObserver<EncryptFormattedResponse> out) {
      requests.add(r);
      out.onNext(
          EncryptFormattedResponse.newBuilder()
              .setValue(reverse(r.getValue()))
              .setKeyVersion(3)
              .build());
      out.onCompleted();
    }

    @Override
    public void decryptFormatted(
        DecryptFormattedRequest r, StreamObserver<DecryptFormattedResponse> out) {
      requests.add(r);
      if (!refuseVersionZero(r.getKeyVersion(), out)) {
        out.onNext(
            DecryptFormattedResponse.newBuilder()
                .setValue(reverse(r.getValue()))
                .setKeyVersion(r.getKeyVersion())
                .build());
        out.onCompleted();
      }
    }

    @Override
    public void reEncryptFormatted(
        ReEncryptFormattedRequest r, StreamObserver<ReEncryptFormattedResponse> out) {
      requests.add(r);
      if (!refuseVersionZero(r.getKeyVersion(), out)) {
        out.onNext(
            ReEncryptFormattedResponse.newBuilder()
                .setValue("re-" + r.getValue())
                .setKeyVersion(4)
                .setSourceKeyVersion(r.getKeyVersion())
                .build());
        out.onCompleted();
      }
    }

    @Override
    public void maskFormatted(MaskFormattedRequest r, StreamObserver<MaskFormattedResponse> out) {
      requests.add(r);
      if (!refuseVersionZero(r.getKeyVersion(), out)) {
        out.onNext(
            MaskFormattedResponse.newBuilder()
                .setMasked("•••• 4242")
                .setKeyVersion(r.getKeyVersion())
                .build());
        out.onCompleted();
      }
    }

    @Override
    public void encryptFormattedBatch(
        EncryptFormattedBatchRequest r, StreamObserver<EncryptFormattedBatchResponse> out) {
      requests.add(r);
      EncryptFormattedBatchResponse.Builder response = EncryptFormattedBatchResponse.newBuilder();
      r.getItemsList()
          .forEach(
              i ->
                  response.addResults(
                      result(
                          i.getReference(),
                          i.getValue().equals("bad") ? "bad" : reverse(i.getValue()),
                          3)));
      out.onNext(response.build());
      out.onCompleted();
    }

    @Override
    public void decryptFormattedBatch(
        DecryptFormattedBatchRequest r, StreamObserver<DecryptFormattedBatchResponse> out) {
      requests.add(r);
      DecryptFormattedBatchResponse.Builder response = DecryptFormattedBatchResponse.newBuilder();
      r.getItemsList()
          .forEach(
              i ->
                  response.addResults(
                      result(
                          i.getReference(),
                          i.getValue().equals("bad") ? "bad" : reverse(i.getValue()),
                          i.getKeyVersion())));
      out.onNext(response.build());
      out.onCompleted();
    }
  }

  /**
   * The fake's streams: one answer per request, in order, ending with UNAVAILABLE after
   * failStreamAfter answers when that is set.
   */
  private <Q extends Message, R> StreamObserver<Q> streamed(
      StreamObserver<R> out,
      Function<Q, FormattedBatchResult> answer,
      Function<FormattedBatchResult, R> wrap) {
    int failAfter = failStreamAfter.getAndSet(0);
    return new StreamObserver<>() {
      private int answered;
      private boolean failed;

      @Override
      public void onNext(Q request) {
        if (failed) {
          return;
        }
        if (failAfter > 0 && answered == failAfter) {
          failed = true;
          out.onError(
              Status.UNAVAILABLE.withDescription("the fake server went away").asRuntimeException());
          return;
        }
        requests.add(request);
        answered++;
        out.onNext(wrap.apply(answer.apply(request)));
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        if (!failed) {
          out.onCompleted();
        }
      }
    };
  }

  /** The fake's stream service: the batch answers, one per streamed request. */
  private final class FakeFormattedStreams extends FakeFormatted {
    @Override
    public StreamObserver<EncryptFormattedStreamRequest> encryptFormattedStream(
        StreamObserver<EncryptFormattedStreamResponse> out) {
      return streamed(
          out,
          (EncryptFormattedStreamRequest r) ->
              result(
                  r.getReference(), r.getValue().equals("bad") ? "bad" : reverse(r.getValue()), 3),
          r -> EncryptFormattedStreamResponse.newBuilder().setResult(r).build());
    }

    @Override
    public StreamObserver<DecryptFormattedStreamRequest> decryptFormattedStream(
        StreamObserver<DecryptFormattedStreamResponse> out) {
      return streamed(
          out,
          (DecryptFormattedStreamRequest r) ->
              result(
                  r.getReference(),
                  r.getValue().equals("bad") ? "bad" : reverse(r.getValue()),
                  r.getKeyVersion()),
          r -> DecryptFormattedStreamResponse.newBuilder().setResult(r).build());
    }

    @Override
    public StreamObserver<ReEncryptFormattedStreamRequest> reEncryptFormattedStream(
        StreamObserver<ReEncryptFormattedStreamResponse> out) {
      return streamed(
          out,
          (ReEncryptFormattedStreamRequest r) ->
              r.getValue().equals("bad")
                  ? result(r.getReference(), "bad", 0)
                  : result(r.getReference(), "re-" + r.getValue(), 4).toBuilder()
                      .setSourceKeyVersion(r.getKeyVersion())
                      .build(),
          r -> ReEncryptFormattedStreamResponse.newBuilder().setResult(r).build());
    }
  }

  private final class FakeAdmin extends KeyAdminServiceGrpc.KeyAdminServiceImplBase {
    @Override
    public void createKey(CreateKeyRequest r, StreamObserver<CreateKeyResponse> out) {
      requests.add(r);
      out.onNext(
          CreateKeyResponse.newBuilder()
              .setKey(
                  io.cipherd.api.v1.Key.newBuilder()
                      .setKeyName(r.getKeyName())
                      .setCurrentVersion(1)
                      .addVersions(
                          io.cipherd.api.v1.KeyVersion.newBuilder()
                              .setVersion(1)
                              .setMode(r.getMode())
                              .setFpeFormat(r.getFpeFormat())))
              .build());
      out.onCompleted();
    }
  }

  @BeforeEach
  void start() throws Exception {
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(new FakeFormattedStreams())
            .addService(new FakeAdmin())
            .build()
            .start();
    client = CipherdClient.builder("127.0.0.1:" + server.getPort()).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void unaryCalls_sendKeyValueContextAndVersion() {
    FormattedValues f = client.formatted();
    FormattedValue ct = f.encrypt("cards", "1234567890", COLUMN);
    assertEquals(new FormattedValue("0987654321", 3), ct);
    assertEquals("1234567890", f.decrypt("cards", ct, COLUMN));
    FormattedRewrapped moved = f.reEncrypt("cards", ct, COLUMN);
    assertEquals(new FormattedRewrapped(new FormattedValue("re-0987654321", 4), 3), moved);
    assertEquals("•••• 4242", f.mask("cards", ct, COLUMN));
    EncryptFormattedRequest encrypt = (EncryptFormattedRequest) requests.get(0);
    assertEquals("1234567890", encrypt.getValue());
    assertEquals("users.card", encrypt.getContext().toStringUtf8());
    DecryptFormattedRequest decrypt = (DecryptFormattedRequest) requests.get(1);
    assertEquals(3, decrypt.getKeyVersion());
    assertEquals("0987654321", decrypt.getValue());
    assertEquals(3, ((MaskFormattedRequest) requests.get(3)).getKeyVersion());
  }

  @Test
  void aValueWithoutItsVersion_isRefused() {
    assertThrows(NullPointerException.class, () -> new FormattedItem("r", null));
    assertThrows(IllegalArgumentException.class, () -> new FormattedValue("0987654321", -1));
    InvalidArgumentException e =
        assertThrows(
            InvalidArgumentException.class,
            () -> client.formatted().mask("cards", new FormattedValue("0987654321", 0), COLUMN));
    assertTrue(e.getMessage().contains("key_version"), e.getMessage());
  }

  @Test
  void batches_answerOneResultPerItemInOrderEachWithItsOwnVersion() {
    FormattedValues f = client.formatted();
    List<ItemResult<FormattedValue>> encrypted =
        f.encryptAll(
            "ids",
            List.of(
                new FormattedPlainItem("a", "123456"),
                new FormattedPlainItem("b", "bad"),
                new FormattedPlainItem("c", "654321", "own".getBytes(StandardCharsets.UTF_8))),
            COLUMN);
    assertEquals(List.of("a", "b", "c"), encrypted.stream().map(ItemResult::reference).toList());
    assertEquals(new FormattedValue("654321", 3), encrypted.get(0).get());
    assertInstanceOf(InvalidArgumentException.class, encrypted.get(1).error());
    EncryptFormattedBatchRequest sent = (EncryptFormattedBatchRequest) requests.get(0);
    assertEquals("users.card", sent.getContext().toStringUtf8());
    assertEquals("own", sent.getItems(2).getContext().toStringUtf8());
    assertTrue(sent.getItems(0).getContext().isEmpty());

    List<ItemResult<String>> decrypted =
        f.decryptAll(
            "ids",
            List.of(
                new FormattedItem("a", encrypted.get(0).get()),
                new FormattedItem("x", new FormattedValue("cba", 1)),
                new FormattedItem("b", new FormattedValue("bad", 2))),
            new byte[0]);
    assertEquals("123456", decrypted.get(0).get());
    assertEquals(3, decrypted.get(0).keyVersion());
    assertEquals("abc", decrypted.get(1).get());
    assertEquals(1, decrypted.get(1).keyVersion());
    assertFalse(decrypted.get(2).ok());
    DecryptFormattedBatchRequest batch = (DecryptFormattedBatchRequest) requests.get(1);
    assertEquals(0, batch.getKeyVersion());
    assertEquals(
        List.of(3, 1, 2), batch.getItemsList().stream().map(i -> i.getKeyVersion()).toList());
  }

  @Test
  void createFormatPreserving_sendsTheFormat() {
    FpeFormat card = FpeFormat.of(FpeTemplate.CARD_NUMBER).acceptingSmallDomain();
    Key key = client.keys().createFormatPreserving("cards", card, 0, KeyPolicy.DEFAULT);
    CreateKeyRequest sent = (CreateKeyRequest) requests.get(0);
    assertEquals(io.cipherd.api.v1.Mode.MODE_FF1, sent.getMode());
    assertEquals(
        io.cipherd.api.v1.FpeTemplate.FPE_TEMPLATE_CARD_NUMBER, sent.getFpeFormat().getTemplate());
    assertTrue(sent.getFpeFormat().getAcceptSmallDomain());
    assertEquals(Mode.FF1, key.versions().get(0).mode());
    assertEquals(card, key.versions().get(0).fpeFormat().orElseThrow());
    assertThrows(
        IllegalArgumentException.class, () -> new FpeFormat("01", FpeTemplate.DIGITS, 0, false, 0));
    assertThrows(IllegalArgumentException.class, () -> new FpeFormat("", null, 0, false, 0));
    assertFalse(Mode.FF1.inHeaders());
  }

  @Test
  void everyApiTemplate_hasAClientTemplate() {
    for (io.cipherd.api.v1.FpeTemplate t : io.cipherd.api.v1.FpeTemplate.values()) {
      if (t != io.cipherd.api.v1.FpeTemplate.FPE_TEMPLATE_UNSPECIFIED
          && t != io.cipherd.api.v1.FpeTemplate.UNRECOGNIZED) {
        assertEquals(t, FpeTemplate.fromProto(t).toProto());
      }
    }
  }

  @Test
  void plainItems_doNotShowTheirValue() {
    assertFalse(new FormattedPlainItem("r", "4111111111111111").toString().contains("4111"));
  }

  /** n stored values "v<i>" at version 1 with references "0" to "n-1", "bad" at {@code bad}. */
  private static Iterator<FormattedItem> column(int n, int bad) {
    return IntStream.range(0, n)
        .mapToObj(
            i ->
                new FormattedItem(
                    String.valueOf(i), new FormattedValue(i == bad ? "bad" : "v" + i, 1)))
        .iterator();
  }

  private static <T> List<ItemResult<T>> drain(ItemStream<T> stream, List<String> references) {
    List<ItemResult<T>> results = new ArrayList<>();
    try (stream) {
      while (stream.hasNext()) {
        ItemResult<T> r = stream.next();
        references.add(r.reference());
        results.add(r);
      }
    }
    return results;
  }

  private static List<String> references(int n) {
    return IntStream.range(0, n).mapToObj(String::valueOf).toList();
  }

  @Test
  void reEncryptStream_answersEachItemInOrder_aFailedOneAlone() {
    List<String> refs = new ArrayList<>();
    List<ItemResult<FormattedRewrapped>> results =
        drain(client.formatted().reEncryptStream("cards", column(600, 300), COLUMN, null), refs);
    assertEquals(references(600), refs);
    assertInstanceOf(InvalidArgumentException.class, results.get(300).error());
    assertEquals(new FormattedRewrapped(new FormattedValue("re-v1", 4), 1), results.get(1).get());
    ReEncryptFormattedStreamRequest first = (ReEncryptFormattedStreamRequest) requests.get(0);
    assertEquals("cards", first.getKeyName());
    assertEquals("users.card", first.getContext().toStringUtf8());
    assertEquals(1, first.getKeyVersion());
  }

  @Test
  void encryptAndDecryptStreams_keepOrderAndAnItemsOwnContext() {
    FormattedValues f = client.formatted();
    List<FormattedPlainItem> items =
        List.of(
            new FormattedPlainItem("a", "1234"),
            new FormattedPlainItem("b", "bad"),
            new FormattedPlainItem("c", "5678", "own".getBytes(StandardCharsets.UTF_8)));
    List<ItemResult<FormattedValue>> encrypted =
        drain(f.encryptStream("ids", items.iterator(), COLUMN, null), new ArrayList<>());
    assertEquals(new FormattedValue("4321", 3), encrypted.get(0).get());
    assertFalse(encrypted.get(1).ok());
    assertEquals(
        List.of("users.card", "users.card", "own"),
        requests.stream()
            .map(r -> ((EncryptFormattedStreamRequest) r).getContext().toStringUtf8())
            .toList());
    List<FormattedItem> back =
        List.of(
            new FormattedItem("a", encrypted.get(0).get()),
            new FormattedItem("c", encrypted.get(2).get()));
    List<ItemResult<String>> plain =
        drain(f.decryptStream("ids", back.iterator(), COLUMN, null), new ArrayList<>());
    assertEquals(List.of("1234", "5678"), plain.stream().map(ItemResult::get).toList());
    assertEquals(3, ((DecryptFormattedStreamRequest) requests.get(3)).getKeyVersion());
  }

  @Test
  void aBrokenStream_resumesAfterItsLastReference() {
    failStreamAfter.set(400);
    List<String> refs = new ArrayList<>();
    UnavailableException broken =
        assertThrows(
            UnavailableException.class,
            () ->
                drain(
                    client.formatted().reEncryptStream("cards", column(1000, -1), COLUMN, null),
                    refs));
    assertEquals("399", broken.lastReference().orElseThrow());
    assertEquals(400, refs.size());
    drain(
        client
            .formatted()
            .reEncryptStream(
                "cards", column(1000, -1), COLUMN, broken.lastReference().orElseThrow()),
        refs);
    assertEquals(references(1000), refs);
  }
}
