package io.cipherd.client;

import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.EraseSubjectResponse;
import io.cipherd.api.v1.EraseSubjectsRequest;
import io.cipherd.api.v1.EraseSubjectsResponse;
import io.cipherd.api.v1.EraseSubjectsResult;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.GenerateDataKeyResponse;
import io.cipherd.api.v1.GetSubjectRequest;
import io.cipherd.api.v1.GetSubjectResponse;
import io.cipherd.api.v1.ItemError;
import io.cipherd.api.v1.SubjectErasureOutcome;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Data subjects against an in-process fake of SubjectService and the encrypting calls, which
 * records what each request carried (the real server cannot be asked); the real server's side is in
 * SubjectsTest.
 */
class SubjectsFakeTest {
  private static final Instant ERASED_AT = Instant.parse("2026-11-26T20:00:00Z");
  private static final Timestamp ERASED_TS =
      Timestamp.newBuilder().setSeconds(ERASED_AT.getEpochSecond()).build();

  private final Set<String> erased = new HashSet<>();
  private final List<Message> requests = new CopyOnWriteArrayList<>();
  private final List<Integer> calls = new ArrayList<>();
  private volatile boolean shortAnswer;
  private Server server;
  private CipherdClient client;

  private io.cipherd.api.v1.SubjectErasure erase(String key, String subject) {
    if (subject.startsWith("nokey-")) {
      return io.cipherd.api.v1.SubjectErasure.newBuilder()
          .setOutcome(SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_NO_KEY)
          .build();
    }
    if (!erased.add(subject)) {
      return io.cipherd.api.v1.SubjectErasure.newBuilder()
          .setOutcome(SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED)
          .setEraseTime(ERASED_TS)
          .build();
    }
    return io.cipherd.api.v1.SubjectErasure.newBuilder()
        .setOutcome(SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ERASED)
        .setEraseTime(ERASED_TS)
        .setReceipt(
            io.cipherd.api.v1.ErasureReceipt.newBuilder()
                .setKeyName(key)
                .setSubjectHash("ab".repeat(32))
                .setEraseTime(ERASED_TS)
                .setTrail("audit.jsonl")
                .setAuditSeq(erased.size())
                .setRecordHash("cd".repeat(32)))
        .build();
  }

  @BeforeEach
  void start() throws Exception {
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(new FakeSubjects())
            .addService(new FakeCrypto())
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
  void theSubjectReachesEveryEncryptingRequest() {
    List<EncryptItem> items =
        List.of(
            EncryptItem.of("a", utf8("a")), EncryptItem.of("b", utf8("b")).withSubject("user-7"));
    Subject subject = Subject.of("user-8812");
    client.encrypt("users", utf8("x"), new byte[0], subject.renewingErased());
    client.encryptBatch("users", items, subject);
    try (ItemStream<String> stream =
        client.encryptStream("users", items.iterator(), subject.renewingErased(), null)) {
      stream.forEachRemaining(r -> assertTrue(r.ok()));
    }
    client.generateDataKey("users", 0, new byte[0], false, Subject.of("user-9").renewingErased());
    client.encrypt("users", utf8("plain"));

    EncryptRequest encrypt = (EncryptRequest) requests.get(0);
    assertEquals("user-8812", encrypt.getSubject());
    assertTrue(encrypt.getRenewErasedSubject());
    EncryptBatchRequest batch = (EncryptBatchRequest) requests.get(1);
    assertEquals("user-8812", batch.getSubject());
    assertFalse(batch.getRenewErasedSubject());
    assertEquals(
        List.of("", "user-7"), batch.getItemsList().stream().map(i -> i.getSubject()).toList());
    EncryptStreamRequest s1 = (EncryptStreamRequest) requests.get(2);
    EncryptStreamRequest s2 = (EncryptStreamRequest) requests.get(3);
    assertEquals(List.of("user-8812", "user-7"), List.of(s1.getSubject(), s2.getSubject()));
    assertTrue(s1.getRenewErasedSubject() && s2.getRenewErasedSubject());
    GenerateDataKeyRequest dataKey = (GenerateDataKeyRequest) requests.get(4);
    assertEquals("user-9", dataKey.getSubject());
    assertTrue(dataKey.getRenewErasedSubject());
    EncryptRequest plain = (EncryptRequest) requests.get(5);
    assertEquals("", plain.getSubject());
    assertFalse(plain.getRenewErasedSubject());
  }

  @Test
  void eraseOutcomesReceiptStatusAndTheErasedError() {
    SubjectErasure first = client.subjects().erase("users", "user-8812");
    assertEquals(ErasureOutcome.ERASED, first.outcome());
    assertEquals(
        new ErasureReceipt("users", "ab".repeat(32), ERASED_AT, "audit.jsonl", 1, "cd".repeat(32)),
        first.receipt().orElseThrow());
    SubjectErasure again = client.subjects().erase("users", "user-8812");
    assertEquals(ErasureOutcome.ALREADY_ERASED, again.outcome());
    assertTrue(again.receipt().isEmpty());
    SubjectErasure none = client.subjects().erase("users", "nokey-1");
    assertEquals(ErasureOutcome.NO_KEY, none.outcome());
    assertTrue(none.eraseTime().isEmpty());

    SubjectErasedException e =
        assertThrows(
            SubjectErasedException.class,
            () -> client.encrypt("users", utf8("x"), new byte[0], Subject.of("user-8812")));
    assertInstanceOf(FailedPreconditionException.class, e);
    assertEquals(ERASED_AT, e.eraseTime().orElseThrow());
    assertFalse(e.getMessage().contains("user-8812"));
    client.encrypt("users", utf8("x"), new byte[0], Subject.of("user-8812").renewingErased());

    SubjectStatus status = client.subjects().get("users", "user-8812");
    assertEquals(SubjectState.ERASED, status.state());
    assertEquals(ERASED_AT, status.eraseTime().orElseThrow());
    assertEquals(SubjectState.NO_KEY, client.subjects().get("users", "user-1").state());
  }

  @Test
  void eraseAllInCallsOf1000WithOneResultPerItem() {
    List<SubjectItem> items =
        new ArrayList<>(
            IntStream.range(0, 2500)
                .mapToObj(i -> new SubjectItem(String.valueOf(i), "many-" + i))
                .toList());
    items.set(1234, new SubjectItem("1234", "bad-1234"));
    List<ItemResult<SubjectErasure>> results = client.subjects().eraseAll("users", items);
    assertEquals(List.of(1000, 1000, 500), calls);
    assertEquals(
        IntStream.range(0, 2500).mapToObj(String::valueOf).toList(),
        results.stream().map(ItemResult::reference).toList());
    assertInstanceOf(InvalidArgumentException.class, results.get(1234).error());
    for (int i = 0; i < results.size(); i++) {
      if (i != 1234) {
        assertEquals(ErasureOutcome.ERASED, results.get(i).get().outcome());
      }
    }
    shortAnswer = true;
    CipherdException e =
        assertThrows(
            CipherdException.class,
            () ->
                client
                    .subjects()
                    .eraseAll(
                        "users", List.of(new SubjectItem("x", "x"), new SubjectItem("y", "y"))));
    assertTrue(e.getMessage().contains("answered 1 results for 2 subjects"), e.getMessage());
  }

  @Test
  void noValueOfTheClientShowsASubject() {
    for (Object value :
        List.of(
            Subject.of("alice@example.com").renewingErased(),
            new SubjectItem("r1", "alice@example.com"),
            EncryptItem.of("r1", utf8("secret")).withSubject("alice@example.com"))) {
      assertFalse(value.toString().contains("alice@example.com"), value.toString());
    }
  }

  @Test
  void subjectBoundHeadersNameNoVersionAndMalformedOnesAreRefused() {
    for (Mode mode : List.of(Mode.GCM, Mode.CHACHA, Mode.XGCM)) {
      int minimum = mode == Mode.XGCM ? 40 : 28;
      String text = sealed(mode.headerName(), Envelope.SUBJECT_REF_SIZE + minimum);
      Envelope envelope = Envelope.parse(text);
      assertTrue(envelope.subjectBound());
      assertEquals(0, envelope.keyVersion());
      assertEquals("<users/s:" + mode.headerName() + ">", envelope.header());
      assertEquals(text, envelope.format());
    }
    String zeros = Base64.getEncoder().encodeToString(new byte[44]);
    List<List<String>> cases =
        List.of(
            List.of(sealed("gcm", Envelope.SUBJECT_REF_SIZE + 27), "payload_length_invalid"),
            List.of(sealed("cbc", 64), "mode_unknown"),
            List.of(sealed("siv", 64), "mode_unknown"),
            List.of(sealed("hmac", 64), "mode_unknown"),
            List.of("<users/S:gcm>" + zeros, "version_invalid"),
            List.of("<users/s1:gcm>" + zeros, "version_invalid"),
            List.of("<users/s:gcm>", "payload_empty"));
    for (List<String> c : cases) {
      InvalidCiphertextException e =
          assertThrows(InvalidCiphertextException.class, () -> Envelope.parse(c.get(0)));
      assertEquals(c.get(1), e.defect(), c.get(0));
    }
  }

  private static String sealed(String mode, int length) {
    byte[] payload = new byte[length];
    java.util.Arrays.fill(payload, (byte) 0x5a);
    return "<users/s:" + mode + ">" + Base64.getEncoder().encodeToString(payload);
  }

  private final class FakeSubjects extends SubjectServiceGrpc.SubjectServiceImplBase {
    @Override
    public synchronized void eraseSubject(
        EraseSubjectRequest request, StreamObserver<EraseSubjectResponse> out) {
      out.onNext(
          EraseSubjectResponse.newBuilder()
              .setErasure(erase(request.getKeyName(), request.getSubject()))
              .build());
      out.onCompleted();
    }

    @Override
    public synchronized void eraseSubjects(
        EraseSubjectsRequest request, StreamObserver<EraseSubjectsResponse> out) {
      calls.add(request.getItemsCount());
      EraseSubjectsResponse.Builder response = EraseSubjectsResponse.newBuilder();
      request.getItemsList().stream()
          .skip(shortAnswer ? 1 : 0)
          .forEach(
              item -> {
                EraseSubjectsResult.Builder result =
                    EraseSubjectsResult.newBuilder().setReference(item.getReference());
                if (item.getSubject().startsWith("bad-")) {
                  result.setError(
                      ItemError.newBuilder()
                          .setCode(Status.Code.INVALID_ARGUMENT.value())
                          .setReason("INVALID_ARGUMENT")
                          .setMessage("m"));
                } else {
                  result.setErasure(erase(request.getKeyName(), item.getSubject()));
                }
                response.addResults(result);
              });
      out.onNext(response.build());
      out.onCompleted();
    }

    @Override
    public synchronized void getSubject(
        GetSubjectRequest request, StreamObserver<GetSubjectResponse> out) {
      out.onNext(
          erased.contains(request.getSubject())
              ? GetSubjectResponse.newBuilder()
                  .setState(io.cipherd.api.v1.SubjectState.SUBJECT_STATE_ERASED)
                  .setCreateTime(ERASED_TS)
                  .setEraseTime(ERASED_TS)
                  .build()
              : GetSubjectResponse.newBuilder()
                  .setState(io.cipherd.api.v1.SubjectState.SUBJECT_STATE_NO_KEY)
                  .build());
      out.onCompleted();
    }
  }

  private final class FakeCrypto extends CryptoServiceGrpc.CryptoServiceImplBase {
    @Override
    public void encrypt(EncryptRequest request, StreamObserver<EncryptResponse> out) {
      requests.add(request);
      if (erased.contains(request.getSubject()) && !request.getRenewErasedSubject()) {
        com.google.rpc.Status status =
            com.google.rpc.Status.newBuilder()
                .setCode(Status.Code.FAILED_PRECONDITION.value())
                .setMessage("the subject was erased")
                .addDetails(
                    Any.pack(
                        ErrorInfo.newBuilder()
                            .setDomain(Errors.DOMAIN)
                            .setReason("SUBJECT_ERASED")
                            .putMetadata("key", request.getKeyName())
                            .putMetadata("erase_time", ERASED_AT.toString())
                            .build()))
                .build();
        out.onError(StatusProto.toStatusRuntimeException(status));
        return;
      }
      out.onNext(EncryptResponse.newBuilder().setCiphertext("<users/s:gcm>AAAA").build());
      out.onCompleted();
    }

    @Override
    public void encryptBatch(
        EncryptBatchRequest request, StreamObserver<EncryptBatchResponse> out) {
      requests.add(request);
      EncryptBatchResponse.Builder response = EncryptBatchResponse.newBuilder();
      request
          .getItemsList()
          .forEach(
              i ->
                  response.addResults(
                      EncryptBatchResult.newBuilder()
                          .setReference(i.getReference())
                          .setCiphertext("<k/s:gcm>AAAA")));
      out.onNext(response.build());
      out.onCompleted();
    }

    @Override
    public StreamObserver<EncryptStreamRequest> encryptStream(
        StreamObserver<EncryptStreamResponse> out) {
      return new StreamObserver<>() {
        @Override
        public void onNext(EncryptStreamRequest request) {
          requests.add(request);
          out.onNext(
              EncryptStreamResponse.newBuilder()
                  .setResult(
                      EncryptBatchResult.newBuilder()
                          .setReference(request.getReference())
                          .setCiphertext("<k/s:gcm>AAAA"))
                  .build());
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          out.onCompleted();
        }
      };
    }

    @Override
    public void generateDataKey(
        GenerateDataKeyRequest request, StreamObserver<GenerateDataKeyResponse> out) {
      requests.add(request);
      out.onNext(
          GenerateDataKeyResponse.newBuilder()
              .setWrappedKey("<k/s:gcm>AAAA")
              .setPlaintextKey(com.google.protobuf.ByteString.copyFrom(new byte[32]))
              .build());
      out.onCompleted();
    }
  }
}
