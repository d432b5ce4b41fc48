package io.cipherd.server.api;

import static io.cipherd.server.api.TokenCallers.as;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.ItemError;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.server.security.AccessPolicyFile;
import io.cipherd.server.security.BearerTokens;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rewrap rows of docs/security.md's access table, run exhaustively: every grant a caller can
 * hold on the source key ({@code decrypt}, {@code encrypt}, {@code reencrypt}, any subset) and on a
 * target key ({@code encrypt} or nothing), every source mode and legacy keys, within the key and
 * into another, through ReEncrypt, ReEncryptBatch and ReEncryptStream alike.
 *
 * <p>A refused caller must be refused before anything is decrypted: for each refused case the same
 * request with a tampered ciphertext (bad padding, bad tag, flipped bytes) must get exactly the
 * same answer, or the answer is a decryption oracle (adversarial review, findings 1 and 2).
 */
class RewrapAuthorizationTableTest {
  /** What a caller may do with the source keys ({@code src-*}). */
  enum Grant {
    DECRYPT,
    ENCRYPT,
    REENCRYPT
  }

  /** A source key: one per cipher mode, and a legacy key. */
  record Source(String key, Mode mode, boolean authenticated) {
    boolean legacy() {
      return mode == null;
    }
  }

  private static final List<Source> SOURCES =
      List.of(
          new Source("src-gcm", Mode.MODE_GCM, true),
          new Source("src-chacha", Mode.MODE_CHACHA, true),
          new Source("src-xgcm", Mode.MODE_XGCM, true),
          new Source("src-siv", Mode.MODE_SIV, true),
          new Source("src-cbc", Mode.MODE_CBC, false),
          new Source("src-ctr", Mode.MODE_CTR, false),
          new Source("src-cfb", Mode.MODE_CFB, false),
          new Source("src-ofb", Mode.MODE_OFB, false),
          new Source("src-ecb", Mode.MODE_ECB, false),
          new Source("src-legacy", null, false));
  private static final String TARGET = "dst";

  @TempDir static Path dataDir;
  private static InProcessCipherd cipherd;
  private static final List<Caller> CALLERS = callers();

  /**
   * A caller of the table: its grants on the source keys and whether it may encrypt with the
   * target.
   */
  record Caller(Set<Grant> onSource, boolean encryptTarget) {
    String name() {
      String grants =
          onSource.stream()
              .map(g -> g.name().substring(0, 1).toLowerCase(Locale.ROOT))
              .sorted()
              .collect(Collectors.joining());
      return "c-" + (grants.isEmpty() ? "none" : grants) + (encryptTarget ? "-t" : "");
    }
  }

  @BeforeAll
  static void start() throws Exception {
    StringBuilder policy =
        new StringBuilder(
            """
        callers:
          setup:
            token_sha256: %s
            rules:
              - keys: ["*"]
                operations: [admin, import, encrypt]
        """
                .formatted(BearerTokens.hashHex("token-setup")));
    for (Caller caller : CALLERS) {
      policy
          .append("  ")
          .append(caller.name())
          .append(":\n")
          .append("    token_sha256: ")
          .append(BearerTokens.hashHex("token-" + caller.name()))
          .append('\n')
          .append("    rules:\n");
      if (!caller.onSource().isEmpty()) {
        policy
            .append("      - keys: [src-*]\n        operations: [")
            .append(
                caller.onSource().stream()
                    .map(g -> g.name().toLowerCase(Locale.ROOT))
                    .collect(Collectors.joining(", ")))
            .append("]\n");
      }
      // A rule on an unrelated key, so that no caller's rule list is empty.
      policy
          .append("      - keys: [")
          .append(caller.encryptTarget() ? TARGET : "unrelated")
          .append("]\n        operations: [encrypt]\n");
    }
    cipherd =
        InProcessCipherd.start(
            dataDir, AccessPolicyFile.parse("test", new StringReader(policy.toString())));
    var admin = as("setup", cipherd.admin);
    admin.createKey(CreateKeyRequest.newBuilder().setKeyName(TARGET).build());
    for (Source source : SOURCES) {
      if (source.legacy()) {
        LegacyKeys.importMysql(admin, source.key(), LegacyKeys.MYSQL_PASSPHRASE);
      } else {
        admin.createKey(
            CreateKeyRequest.newBuilder()
                .setKeyName(source.key())
                .setMode(source.mode())
                .setAllowUnauthenticated(!source.authenticated())
                .setPolicy(
                    KeyPolicy.newBuilder().setAllowEcbEncryption(source.mode() == Mode.MODE_ECB))
                .build());
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void everyGrant_everySourceMode_everyTarget_unaryBatchAndStream_answerAsTheTableSays()
      throws Exception {
    List<String> mismatches = new ArrayList<>();
    int cases = 0;
    for (Source source : SOURCES) {
      Item good = item(source, false);
      Item tampered = item(source, true);
      for (Caller caller : CALLERS) {
        for (boolean sameKey : new boolean[] {true, false}) {
          String target = sameKey ? (source.legacy() ? source.key() : "") : TARGET;
          Status.Code expected = expected(caller, source, sameKey);
          String where =
              caller.name()
                  + " rewrapping "
                  + source.key()
                  + (sameKey ? " within its key" : " into dst");
          cases++;
          List<Answer> answers = answers(caller, good, target);
          for (Answer answer : answers) {
            if (answer.code() != expected) {
              mismatches.add(
                  where + " via " + answer.shape() + ": expected " + expected + ", got " + answer);
            }
          }
          if (expected != Status.Code.OK) {
            // Refused before decrypting: a tampered ciphertext is answered exactly alike.
            List<Answer> tamperedAnswers = answers(caller, tampered, target);
            for (int i = 0; i < answers.size(); i++) {
              if (!answers.get(i).equals(tamperedAnswers.get(i))) {
                mismatches.add(
                    where
                        + " via "
                        + answers.get(i).shape()
                        + ": tampering changed the answer from "
                        + answers.get(i)
                        + " to "
                        + tamperedAnswers.get(i));
              }
            }
          }
        }
      }
    }
    assertThat(cases).isEqualTo(SOURCES.size() * CALLERS.size() * 2);
    assertThat(mismatches).isEmpty();
  }

  /** docs/security.md's table: the one place a reader checks this test against. */
  private static Status.Code expected(Caller caller, Source source, boolean sameKey) {
    Set<Grant> grants = caller.onSource();
    if (source.legacy() && sameKey) {
      return Status.Code.INVALID_ARGUMENT;
    }
    if (!sameKey) {
      return grants.contains(Grant.DECRYPT) && caller.encryptTarget()
          ? Status.Code.OK
          : Status.Code.PERMISSION_DENIED;
    }
    boolean rewrap =
        grants.contains(Grant.REENCRYPT)
            || (grants.contains(Grant.DECRYPT) && grants.contains(Grant.ENCRYPT));
    boolean allowed = source.authenticated() ? rewrap : rewrap && grants.contains(Grant.DECRYPT);
    return allowed ? Status.Code.OK : Status.Code.PERMISSION_DENIED;
  }

  /** One ciphertext to rewrap: a cipherd one, or a legacy one. */
  record Item(String ciphertext, LegacyCiphertext legacy) {}

  /** A call's or item's answer as a caller sees it. */
  record Answer(String shape, Status.Code code, String message) {
    @Override
    public String toString() {
      return code + " '" + message + "'";
    }
  }

  private static List<Answer> answers(Caller caller, Item item, String target) throws Exception {
    CryptoServiceGrpc.CryptoServiceBlockingStub crypto = as(caller.name(), cipherd.crypto);
    List<Answer> answers = new ArrayList<>();
    ReEncryptRequest.Builder unary = ReEncryptRequest.newBuilder().setKeyName(target);
    ReEncryptBatchItem.Builder batchItem = ReEncryptBatchItem.newBuilder().setReference("r");
    ReEncryptStreamRequest.Builder streamItem =
        ReEncryptStreamRequest.newBuilder().setReference("r").setKeyName(target);
    if (item.legacy() != null) {
      unary.setLegacy(item.legacy());
      batchItem.setLegacy(item.legacy());
      streamItem.setLegacy(item.legacy());
    } else {
      unary.setCiphertext(item.ciphertext());
      batchItem.setCiphertext(item.ciphertext());
      streamItem.setCiphertext(item.ciphertext());
    }
    try {
      crypto.reEncrypt(unary.build());
      answers.add(new Answer("unary", Status.Code.OK, ""));
    } catch (StatusRuntimeException e) {
      answers.add(new Answer("unary", e.getStatus().getCode(), e.getStatus().getDescription()));
    }
    var batch =
        crypto.reEncryptBatch(
            ReEncryptBatchRequest.newBuilder().setKeyName(target).addItems(batchItem).build());
    answers.add(itemAnswer("batch", batch.getResults(0).getError()));

    StreamRecorder<ReEncryptStreamResponse> recorder = new StreamRecorder<>();
    StreamObserver<ReEncryptStreamRequest> requests =
        as(caller.name(), cipherd.cryptoAsync).reEncryptStream(recorder);
    requests.onNext(streamItem.build());
    requests.onCompleted();
    answers.add(itemAnswer("stream", recorder.awaitValues(1).get(0).getResult().getError()));
    return answers;
  }

  private static Answer itemAnswer(String shape, ItemError error) {
    return new Answer(shape, Status.fromCodeValue(error.getCode()).getCode(), error.getMessage());
  }

  /** A ciphertext of {@code source}; {@code tampered} flips bits of its last payload byte. */
  private static Item item(Source source, boolean tampered) {
    if (source.legacy()) {
      String hex = LegacyKeys.MYSQL_HELLO_HEX;
      return new Item(
          "",
          LegacyKeys.hex(
              source.key(),
              tampered
                  ? hex.substring(0, hex.length() - 1) + (hex.endsWith("0") ? "1" : "0")
                  : hex));
    }
    String ciphertext =
        as("setup", cipherd.crypto)
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName(source.key())
                    .setPlaintext(ByteString.copyFromUtf8("the secret, 37 bytes long.........."))
                    .build())
            .getCiphertext();
    if (!tampered) {
      return new Item(ciphertext, null);
    }
    int payloadStart = ciphertext.indexOf('>') + 1;
    byte[] payload = Base64.getDecoder().decode(ciphertext.substring(payloadStart));
    payload[payload.length - 1] ^= 0x5a;
    return new Item(
        ciphertext.substring(0, payloadStart) + Base64.getEncoder().encodeToString(payload), null);
  }

  private static List<Caller> callers() {
    List<Caller> callers = new ArrayList<>();
    for (int bits = 0; bits < 8; bits++) {
      Set<Grant> grants = EnumSet.noneOf(Grant.class);
      for (Grant grant : Grant.values()) {
        if ((bits & (1 << grant.ordinal())) != 0) {
          grants.add(grant);
        }
      }
      callers.add(new Caller(grants, false));
      callers.add(new Caller(grants, true));
    }
    return callers;
  }
}
