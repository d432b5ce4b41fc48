package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.server.ServerProcess;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The destruction path end to end on two cipherd servers, each in its own JVM started as the jar
 * starts, sharing one real Vault: both schedule the same version at the same moment, round after
 * round, and Vault's lifecycle secret takes exactly one write per round; once due, the servers' own
 * sweeps destroy each version once (one lifecycle write wins, and one more clears its list of
 * versions being destroyed once Vault destroyed their data); Vault then holds the KV metadata of
 * each destroyed version (marked destroyed) and not its data; and both servers refuse its
 * ciphertexts as {@code KEY_VERSION_DESTROYED}.
 */
@Tag("vault")
@Timeout(300)
class TwoServersDestructionVaultTest {
  private static final String PREFIX = "cipherd/two-servers";
  private static final String KEY = "orders";
  private static final int ROUNDS = 6;
  private static final String DESTROYED_METRIC = "cipherd_key_versions_destroyed_total";

  @TempDir Path dir;
  private VaultDevServer vault;
  private ServerProcess a;
  private ServerProcess b;

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    Path token = dir.resolve("vault-token");
    Files.writeString(token, vault.rootToken());
    List<String> arguments =
        List.of(
            "--host",
            "127.0.0.1",
            "--keystore",
            "vault",
            "--vault-address",
            vault.address(),
            "--vault-prefix",
            PREFIX,
            "--vault-auth",
            "token",
            "--vault-token-file",
            token.toString(),
            "--vault-refresh-interval",
            "PT1S",
            "--usage-merge-interval",
            "PT1S");
    List<String> jvm = List.of("-Xmx192m", "-XX:+UseSerialGC");
    a = ServerProcess.start(jvm, arguments, Map.of(), dir.resolve("a.log"));
    b = ServerProcess.start(jvm, arguments, Map.of(), dir.resolve("b.log"));
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {a, b, vault}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void racingSchedules_oneWriteEach_dueVersionsDestroyedOnce_dataGoneMetadataKept_bothRefuse()
      throws Exception {
    a.admin()
        .createKey(CreateKeyRequest.newBuilder().setKeyName(KEY).setMode(Mode.MODE_GCM).build());
    List<String> fromA = new ArrayList<>();
    List<String> fromB = new ArrayList<>();
    for (int v = 1; v <= ROUNDS; v++) {
      fromA.add(encrypt(a, v, "a under v" + v));
      fromB.add(encrypt(b, v, "b under v" + v));
      a.admin().rotateKey(RotateKeyRequest.newBuilder().setKeyName(KEY).build());
    }
    int current = ROUNDS + 1;
    String fresh = encrypt(b, current, "current");

    // Both servers schedule the same version at the same moment, once per version.
    List<String> outcomes = new ArrayList<>();
    for (int v = 1; v <= ROUNDS; v++) {
      int writesBefore = lifecycleWrites();
      List<Object> answers = scheduleAtOnce(v);

      int writes = lifecycleWrites() - writesBefore;
      outcomes.add("v" + v + ": " + describe(answers) + ", lifecycle writes " + writes);
      assertThat(writes).as("lifecycle writes for version %d (%s)", v, answers).isEqualTo(1);
      List<Timestamp> destroyTimes = new ArrayList<>();
      for (Object answer : answers) {
        assertThat(answer).as("both servers answer the schedule").isInstanceOf(Key.class);
        Key key = (Key) answer;
        assertThat(key.getVersions(v - 1).getState())
            .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED);
        destroyTimes.add(key.getVersions(v - 1).getDestroyTime());
      }
      assertThat(destroyTimes.get(1))
          .as("the loser re-read the winner's schedule instead of writing its own")
          .isEqualTo(destroyTimes.get(0));
    }
    System.out.println("schedule races on two servers: " + outcomes);
    assertThat(reasonOf(a, fromA.get(0))).isEqualTo("KEY_VERSION_DESTRUCTION_SCHEDULED");
    awaitReason(b, fromB.get(0), "KEY_VERSION_DESTRUCTION_SCHEDULED");

    // Time passes: the schedules are moved into the past in Vault, as a day going by would.
    int writesBeforeSweeps = backdateSchedules();
    a.stop();
    b.stop();
    a.launch();
    b.launch();
    a.awaitServing();
    b.awaitServing();
    awaitDestroyedInVault(ROUNDS);

    double byA = a.metric(DESTROYED_METRIC);
    double byB = b.metric(DESTROYED_METRIC);
    System.out.printf(
        "due destructions after a restart of both servers: a destroyed %.0f, b %.0f; lifecycle"
            + " writes %d%n",
        byA, byB, lifecycleWrites() - writesBeforeSweeps);
    assertThat(byA + byB).as("versions destroyed, summed over both servers").isEqualTo(ROUNDS);
    assertThat(lifecycleWrites() - writesBeforeSweeps)
        .as(
            "the sweeps' lifecycle writes: one won, the other found nothing due, and one cleared"
                + " the list of versions being destroyed")
        .isEqualTo(2);
    assertThat(
            apiData("secret/data/" + PREFIX + "/_lifecycle/" + KEY)
                .get("data")
                .asObject()
                .get("destroying"))
        .as("nothing left being destroyed")
        .isNull();

    JsonObject kvVersions =
        apiData("secret/metadata/" + PREFIX + "/" + KEY).get("versions").asObject();
    JsonObject lifecycle =
        apiData("secret/data/" + PREFIX + "/_lifecycle/" + KEY).get("data").asObject();
    for (int v = 1; v <= ROUNDS; v++) {
      JsonObject meta = kvVersions.get(Integer.toString(v)).asObject();
      assertThat(meta.get("destroyed").asBoolean()).as("KV version %d destroyed", v).isTrue();
      assertThat(meta.getString("created_time", "")).as("its metadata is kept").isNotEmpty();
      assertThat(meta.getString("deletion_time", "x")).as("destroyed, not soft-deleted").isEmpty();
      int version = v;
      assertThatThrownBy(
              () ->
                  vault.api(
                      "GET", "secret/data/" + PREFIX + "/" + KEY + "?version=" + version, null))
          .as("the data of KV version %d", v)
          .hasMessageContaining("answered 404")
          .hasMessageContaining("\"data\":null")
          .hasMessageContaining("\"destroyed\":true");
      JsonObject state = lifecycle.get("versions").asObject().get(Integer.toString(v)).asObject();
      assertThat(state.getString("state", "")).isEqualTo("DESTROYED");
      assertThat(state.get("metadata").asObject().getString("mode", ""))
          .as("the lifecycle secret keeps the destroyed version's fields")
          .isEqualTo("gcm");
      assertThat(state.get("metadata").asObject().get("material"))
          .as("and never its bytes")
          .isNull();
    }
    JsonObject live = kvVersions.get(Integer.toString(current)).asObject();
    assertThat(live.get("destroyed").asBoolean()).isFalse();

    // The sweep's winner knows at once; the other server learns it from its next read of the key
    // (--vault-refresh-interval, 1 s here), and refuses the version as scheduled until then.
    for (ServerProcess server : List.of(a, b)) {
      awaitReason(server, fromA.get(ROUNDS - 1), "KEY_VERSION_DESTROYED");
    }
    for (ServerProcess server : List.of(a, b)) {
      for (String ciphertext : concat(fromA, fromB)) {
        StatusRuntimeException refused = refusal(server, ciphertext);
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
        assertThat(ServerProcess.reason(refused)).isEqualTo("KEY_VERSION_DESTROYED");
        assertThat(refused.getStatus().getDescription()).contains("destroyed");
      }
      assertThat(decrypt(server, fresh)).isEqualTo("current");
    }
  }

  private static List<String> concat(List<String> one, List<String> two) {
    List<String> all = new ArrayList<>(one);
    all.addAll(two);
    return all;
  }

  private static String encrypt(ServerProcess server, int version, String plaintext) {
    return server
        .crypto()
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(KEY)
                .setKeyVersion(version)
                .setPlaintext(ByteString.copyFromUtf8(plaintext))
                .build())
        .getCiphertext();
  }

  private static String decrypt(ServerProcess server, String ciphertext) {
    return server
        .crypto()
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
        .getPlaintext()
        .toStringUtf8();
  }

  private static StatusRuntimeException refusal(ServerProcess server, String ciphertext) {
    StatusRuntimeException e =
        catchThrowableOfType(StatusRuntimeException.class, () -> decrypt(server, ciphertext));
    assertThat(e).as("decrypting under a version not serving fails").isNotNull();
    return e;
  }

  private static String reasonOf(ServerProcess server, String ciphertext) {
    return ServerProcess.reason(refusal(server, ciphertext));
  }

  private static void awaitReason(ServerProcess server, String ciphertext, String reason)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        decrypt(server, ciphertext);
        last = "decrypted";
      } catch (StatusRuntimeException e) {
        last = ServerProcess.reason(e);
        if (last.equals(reason)) {
          return;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("expected " + reason + " within 15 s, last answer: " + last);
  }

  /** Both servers ask to schedule {@code version} at once; each answer is a Key or the error. */
  private List<Object> scheduleAtOnce(int version) throws Exception {
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Object>> answers = new ArrayList<>();
      for (ServerProcess server : List.of(a, b)) {
        var stub = server.admin();
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    return (Object)
                        stub.scheduleKeyVersionDestruction(
                                ScheduleKeyVersionDestructionRequest.newBuilder()
                                    .setKeyName(KEY)
                                    .addVersions(version)
                                    .setPendingWindow(Durations.fromDays(1))
                                    .build())
                            .getKey();
                  } catch (StatusRuntimeException e) {
                    return e.getStatus().getCode() + "/" + ServerProcess.reason(e);
                  }
                }));
      }
      List<Object> results = new ArrayList<>();
      for (Future<Object> answer : answers) {
        results.add(answer.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static String describe(List<Object> answers) {
    List<String> parts = new ArrayList<>();
    for (Object answer : answers) {
      parts.add(answer instanceof Key ? "OK" : answer.toString());
    }
    return String.join(" and ", parts);
  }

  private JsonObject apiData(String path) throws Exception {
    return Json.parse(vault.api("GET", path, null)).asObject().get("data").asObject();
  }

  /**
   * The lifecycle secret's KV version: how many lifecycle writes there were, 0 before the first.
   */
  private int lifecycleWrites() throws Exception {
    if (!vault.exists("secret/metadata/" + PREFIX + "/_lifecycle/" + KEY)) {
      return 0;
    }
    return apiData("secret/metadata/" + PREFIX + "/_lifecycle/" + KEY)
        .get("current_version")
        .asInt();
  }

  /**
   * Rewrites the lifecycle secret with every scheduled destroy_time a minute in the past (with
   * check-and-set, as cipherd writes it); returns the secret's KV version after.
   */
  private int backdateSchedules() throws Exception {
    JsonObject latest =
        Json.parse(vault.api("GET", "secret/data/" + PREFIX + "/_lifecycle/" + KEY, null))
            .asObject()
            .get("data")
            .asObject();
    JsonObject data = latest.get("data").asObject();
    int version = latest.get("metadata").asObject().getInt("version", 0);
    String past = Instant.now().minus(Duration.ofMinutes(1)).toString();
    for (JsonObject.Member member : data.get("versions").asObject()) {
      member.getValue().asObject().set("destroy_time", past);
    }
    JsonObject body =
        Json.object().add("options", Json.object().add("cas", version)).add("data", data);
    vault.api("POST", "secret/data/" + PREFIX + "/_lifecycle/" + KEY, body.toString());
    return version + 1;
  }

  private void awaitDestroyedInVault(int versions) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      JsonObject kv = apiData("secret/metadata/" + PREFIX + "/" + KEY).get("versions").asObject();
      int destroyed = 0;
      for (int v = 1; v <= versions; v++) {
        if (kv.get(Integer.toString(v)).asObject().get("destroyed").asBoolean()) {
          destroyed++;
        }
      }
      if (destroyed == versions) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "the servers did not destroy the due versions within 60 s; logs:\n" + a.log() + b.log());
  }
}
