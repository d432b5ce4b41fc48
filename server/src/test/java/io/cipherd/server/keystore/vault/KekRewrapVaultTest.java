package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.protobuf.ByteString;
import com.google.rpc.ErrorInfo;
import io.cipherd.server.api.StatusMapper;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyMaterialUnusableException;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.Pkcs11KekFactory;
import io.cipherd.server.keystore.kek.SoftHsmToken;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * {@code cipherd kek rewrap} on a real Vault: after a rotation of the Transit KEK every stored blob
 * is rewrapped to its newest version, so {@code min_decryption_version} can be raised and a
 * restarted server still decrypts the old data; a move from one Transit key to another (and to a
 * SoftHSM2 token) while a server reads both; and the statuses of KEK failures: a blob that does not
 * unwrap is FAILED_PRECONDITION naming only the key and version (the details in an ERROR line), a
 * sealed Vault behind the Transit KEK is UNAVAILABLE.
 */
@Tag("vault")
@Timeout(180)
class KekRewrapVaultTest {
  private static final String PREFIX = "cipherd/keys";
  private static final String KEK_A = "transit:transit/cipherd-kek";
  private static final String KEK_B = "transit:transit/kek-b";
  private static final KekConfig TRANSIT = KekConfig.transit("transit", "cipherd-kek", false);

  private VaultDevServer vault;
  private final List<Replica> replicas = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    vault.callAsRoot("POST", "sys/mounts/transit", "{\"type\":\"transit\"}");
    vault.callAsRoot("POST", "transit/keys/cipherd-kek", "{\"type\":\"aes256-gcm96\"}");
  }

  @AfterEach
  void stop() throws Exception {
    replicas.forEach(Replica::close);
    vault.close();
  }

  @Test
  void rotatedTransitKek_rewrapped_letsMinDecryptionVersionRise_andARestartDecryptsOldData()
      throws Exception {
    // A key stored raw and migrated (its blobs in _kek/ copies), and one written wrapped.
    Replica raw = replica(KekConfig.OFF);
    raw.keyRing.create("legacy", KeyTemplate.of(CipherMode.GCM));
    Map<ByteString, String> ciphertexts = new LinkedHashMap<>();
    ciphertexts.put(raw.encrypt("legacy", "old row"), "old row");
    byte[] auditKey = raw.vault.auditKeyMaterial();
    migrate(TRANSIT);
    Replica before = replica(TRANSIT);
    before.keyRing.create("payments", KeyTemplate.of(CipherMode.GCM));
    ciphertexts.put(before.encrypt("payments", "card 1"), "card 1");
    before.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
    ciphertexts.put(before.encrypt("payments", "card 2"), "card 2");
    assertThat(blobs().values()).allSatisfy(blob -> assertThat(blob).startsWith("vault:v1:"));

    vault.callAsRoot("POST", "transit/keys/cipherd-kek/rotate", null);
    Replica after = replica(TRANSIT);
    after.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
    ciphertexts.put(after.encrypt("payments", "card 3"), "card 3");
    assertThat(blob(PREFIX + "/payments?version=3")).startsWith("vault:v2:");

    // Transit's own rewrap ignores associated_data (Vault 1.21), so it cannot rewrap cipherd's
    // blobs: the reason KekRewrap unwraps and wraps instead. If this starts passing, use it.
    String bound = blob(PREFIX + "/payments?version=1");
    assertThatThrownBy(
            () ->
                vault.callAsRoot(
                    "POST",
                    "transit/rewrap/cipherd-kek",
                    new JsonObject()
                        .add("ciphertext", bound)
                        .add(
                            "associated_data",
                            Base64.getEncoder()
                                .encodeToString(KvMaterial.versionData("payments", 1)))
                        .toString()))
        .hasMessageContaining("400");

    String first = rewrap(TRANSIT);
    System.out.println(first);
    assertThat(first)
        .contains("key 'legacy': 1 rewrapped now, 0 current, 0 raw, 0 destroyed")
        .contains("key 'payments': 2 rewrapped now, 1 current, 0 raw, 0 destroyed")
        .contains("audit key: rewrapped now")
        .contains("2 keys: 3 versions rewrapped now, 1 current, 0 raw, 0 destroyed; with " + KEK_A)
        .doesNotContain("vault:v");
    Map<String, String> rewrapped = blobs();
    assertThat(rewrapped).hasSize(5); // legacy 1, payments 1 to 3, the audit key
    assertThat(rewrapped.values()).allSatisfy(blob -> assertThat(blob).startsWith("vault:v2:"));
    assertThat(vault.exists("secret/data/" + PREFIX + "/payments?version=1"))
        .as("the key's own KV version, wrapped by v1, is destroyed once rewrapped")
        .isFalse();

    vault.callAsRoot("POST", "transit/keys/cipherd-kek/config", "{\"min_decryption_version\":2}");
    Replica restarted = replica(KekConfig.transit("transit", "cipherd-kek", true));
    for (Map.Entry<ByteString, String> ciphertext : ciphertexts.entrySet()) {
      assertThat(restarted.decrypt(ciphertext.getKey())).isEqualTo(ciphertext.getValue());
    }
    assertThat(restarted.vault.auditKeyMaterial()).isEqualTo(auditKey);

    String second = rewrap(TRANSIT);
    assertThat(second)
        .contains("key 'payments': 0 rewrapped now, 3 current")
        .contains("audit key: current")
        .contains("2 keys: 0 versions rewrapped now, 4 current");
    assertThat(blobs()).isEqualTo(rewrapped);
  }

  @Test
  void transitKeyA_movedToTransitKeyB_whileAServerReadsBoth_thenAIsNotNeeded() throws Exception {
    Replica onA = replica(TRANSIT);
    onA.keyRing.create("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString first = onA.encrypt("payments", "card 1");
    onA.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString second = onA.encrypt("payments", "card 2");
    byte[] auditKey = onA.vault.auditKeyMaterial();
    vault.callAsRoot("POST", "transit/keys/kek-b", "{\"type\":\"aes256-gcm96\"}");

    KekConfig bReadingA =
        KekConfig.transit("transit", "kek-b", false).alsoUnwrapping(List.of(KEK_A));
    Replica during = replica(bReadingA);
    assertThat(during.decrypt(second)).isEqualTo("card 2");
    during.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString third = during.encrypt("payments", "card 3");
    assertThat(kvData(PREFIX + "/payments?version=3").get("kek").asString()).isEqualTo(KEK_B);

    String printed = rewrap(bReadingA);
    assertThat(printed)
        .contains("key 'payments': 2 rewrapped now, 1 current, 0 raw, 0 destroyed")
        .contains("audit key: rewrapped now")
        .contains("with " + KEK_B);
    assertThat(kekIds()).containsOnly(KEK_B).hasSize(4);
    assertThat(rewrap(bReadingA)).contains("0 versions rewrapped now, 3 current");

    // Transit key A can go: a server on B alone reads everything.
    vault.callAsRoot("POST", "transit/keys/cipherd-kek/config", "{\"deletion_allowed\":true}");
    vault.callAsRoot("DELETE", "transit/keys/cipherd-kek", null);
    Replica onB = replica(KekConfig.transit("transit", "kek-b", true));
    assertThat(onB.decrypt(first)).isEqualTo("card 1");
    assertThat(onB.decrypt(second)).isEqualTo("card 2");
    assertThat(onB.decrypt(third)).isEqualTo("card 3");
    assertThat(onB.vault.auditKeyMaterial()).isEqualTo(auditKey);
    assertThat(during.decrypt(first)).as("a server still reading A reads B").isEqualTo("card 1");
  }

  @Test
  void transitKek_movedToAPkcs11Token_withTheTokenReadingNothingElse() throws Exception {
    Map<String, String> token = SoftHsmToken.get().options();
    Replica onTransit = replica(TRANSIT);
    onTransit.keyRing.create("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString first = onTransit.encrypt("payments", "card 1");
    onTransit.vault.auditKeyMaterial();

    KekConfig pkcs11ReadingTransit =
        new KekConfig(Pkcs11KekFactory.NAME, null, null, token, false, List.of(KEK_A));
    assertThat(rewrap(pkcs11ReadingTransit))
        .contains("key 'payments': 1 rewrapped now, 0 current")
        .contains("audit key: rewrapped now");
    assertThat(blobs().values()).allSatisfy(blob -> assertThat(blob).startsWith("pkcs11:v1:"));
    Replica onToken = replica(new KekConfig(Pkcs11KekFactory.NAME, null, null, token, true));
    assertThat(onToken.decrypt(first)).isEqualTo("card 1");
  }

  /**
   * A blob that does not unwrap is the operator's problem, not a retry: FAILED_PRECONDITION naming
   * the key and version and nothing of the KEK or the blob, an ERROR line with both; a tampered
   * ciphertext under a version that does unwrap still fails as a decryption, saying nothing more.
   */
  @Test
  void blobOfAKekTheServerDoesNotRead_isFailedPrecondition_andAnErrorLineForTheOperator()
      throws Exception {
    Replica onA = replica(TRANSIT);
    onA.keyRing.create("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString first = onA.encrypt("payments", "card 1");
    vault.callAsRoot("POST", "transit/keys/kek-b", "{\"type\":\"aes256-gcm96\"}");
    Replica onB = replica(KekConfig.transit("transit", "kek-b", false));
    onB.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    ByteString order = onB.encrypt("orders", "order 1");

    List<ILoggingEvent> logged;
    Logger logger = (Logger) LoggerFactory.getLogger(VaultKeyStore.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    Throwable refused;
    try {
      refused = catchThrown(() -> onB.decrypt(first));
      catchThrown(() -> onB.decrypt(first));
      logged = List.copyOf(appender.list);
    } finally {
      logger.detachAppender(appender);
    }

    assertThat(refused).isInstanceOf(KeyMaterialUnusableException.class);
    assertThat(refused.getCause()).isInstanceOf(KekUnwrapException.class);
    Status status = StatusMapper.toStatus(refused);
    assertThat(status.getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(status.getDescription())
        .isEqualTo(
            "key 'payments' version 1: its stored key material could not be unwrapped; an"
                + " operator must see the server log")
        .doesNotContain("transit")
        .doesNotContain("vault:");
    assertThat(errorInfo(StatusMapper.toException(refused)).getReason())
        .isEqualTo("KEY_MATERIAL_UNUSABLE");
    assertThat(errorInfo(StatusMapper.toException(refused)).getMetadataMap())
        .containsEntry("key", "payments")
        .containsEntry("version", "1");
    List<String> errors =
        logged.stream()
            .filter(event -> event.getLevel() == Level.ERROR)
            .map(ILoggingEvent::getFormattedMessage)
            .toList();
    assertThat(errors)
        .as("one ERROR line for two failed calls within a minute")
        .hasSize(1)
        .first()
        .asString()
        .contains("key 'payments' version 1", "wrapped by " + KEK_A, KEK_B)
        .doesNotContain("vault:v");

    String text = order.toStringUtf8();
    int at = text.length() - 10; // inside the GCM tag's base64
    ByteString tampered =
        ByteString.copyFromUtf8(
            text.substring(0, at) + (text.charAt(at) == 'A' ? 'B' : 'A') + text.substring(at + 1));
    Throwable failedDecrypt = catchThrown(() -> onB.decrypt(tampered));
    assertThat(StatusMapper.toStatus(failedDecrypt).getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(StatusMapper.kindOf(failedDecrypt).reason().name()).isEqualTo("DECRYPTION_FAILED");
    assertThat(onB.decrypt(order)).isEqualTo("order 1");
  }

  /** A sealed Vault behind the Transit KEK is an outage: UNAVAILABLE, never an unwrap failure. */
  @Test
  void transitKek_ofASealedVault_isUnavailable() throws Exception {
    VaultConfig config = vault.config(PREFIX);
    VaultSession session = VaultSession.open(config);
    try {
      KvClient kv =
          new KvClient(
              session,
              new KvPaths(config.mount(), config.prefix()),
              new VaultCircuit(
                  VaultKeyStore.CIRCUIT_OPEN_FOR,
                  VaultKeyStore.longestCall(config),
                  Clock.systemUTC()));
      TransitKek kek = new TransitKek(kv, "transit", "cipherd-kek");
      byte[] data = KvMaterial.versionData("payments", 1);
      String wrapped = kek.wrap(new byte[32], data);
      assertThat(kek.unwrap(wrapped, data)).hasSize(32);

      vault.callAsRoot("PUT", "sys/seal", null);
      Throwable down = catchThrown(() -> kek.unwrap(wrapped, data));
      assertThat(down).isInstanceOf(KeyStoreUnavailableException.class);
      assertThat(StatusMapper.toStatus(down).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(down.getMessage()).startsWith("the key store").doesNotContain("cipherd-kek");
    } finally {
      session.close();
    }
  }

  private static Throwable catchThrown(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("expected the call to fail");
  }

  private static ErrorInfo errorInfo(StatusRuntimeException e) throws Exception {
    return StatusProto.fromThrowable(e).getDetails(0).unpack(ErrorInfo.class);
  }

  private Replica replica(KekConfig kek) {
    Replica replica = new Replica(vault.config(PREFIX), kek);
    replicas.add(replica);
    return replica;
  }

  private String migrate(KekConfig kek) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (VaultKeyStore store = VaultKeyStore.open(vault.config(PREFIX), kek)) {
      store.kekMigration().run(new PrintStream(printed, true, StandardCharsets.UTF_8));
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** Runs the rewrap as {@code cipherd kek rewrap} does, returning what it printed. */
  private String rewrap(KekConfig kek) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (VaultKeyStore store = VaultKeyStore.open(vault.config(PREFIX), kek)) {
      store.kekRewrap().run(new PrintStream(printed, true, StandardCharsets.UTF_8));
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  /**
   * The {@code material_wrapped} of every readable version of every KV secret under the prefix, by
   * secret and version; fails on any raw {@code material}.
   */
  private Map<String, String> blobs() throws Exception {
    return fieldOfEveryVersion("material_wrapped");
  }

  private List<String> kekIds() throws Exception {
    return List.copyOf(fieldOfEveryVersion("kek").values());
  }

  private Map<String, String> fieldOfEveryVersion(String field) throws Exception {
    Map<String, String> found = new LinkedHashMap<>();
    for (String secret : secrets(PREFIX)) {
      JsonObject versions =
          data(vault.api("GET", "secret/metadata/" + secret, null)).get("versions").asObject();
      for (JsonObject.Member version : versions) {
        JsonObject state = version.getValue().asObject();
        if (state.get("destroyed").asBoolean()
            || !state.get("deletion_time").asString().isEmpty()) {
          continue;
        }
        JsonObject fields = kvData(secret + "?version=" + version.getName());
        assertThat(fields.names()).as(secret).doesNotContain("material");
        JsonValue value = fields.get(field);
        if (value != null) {
          found.put(secret + "@" + version.getName(), value.asString());
        }
      }
    }
    return found;
  }

  private String blob(String secretAndQuery) throws Exception {
    return kvData(secretAndQuery).get("material_wrapped").asString();
  }

  /** Every KV secret under {@code folder}, walking sub-folders. */
  private List<String> secrets(String folder) throws Exception {
    List<String> found = new ArrayList<>();
    JsonValue keys =
        data(vault.api("GET", "secret/metadata/" + folder + "?list=true", null)).get("keys");
    for (JsonValue key : keys.asArray()) {
      String name = key.asString();
      if (name.endsWith("/")) {
        found.addAll(secrets(folder + "/" + name.substring(0, name.length() - 1)));
      } else {
        found.add(folder + "/" + name);
      }
    }
    return found;
  }

  private JsonObject kvData(String secretAndQuery) throws Exception {
    return data(vault.api("GET", "secret/data/" + secretAndQuery, null)).get("data").asObject();
  }

  private static JsonObject data(String body) {
    return Json.parse(body).asObject().get("data").asObject();
  }
}
