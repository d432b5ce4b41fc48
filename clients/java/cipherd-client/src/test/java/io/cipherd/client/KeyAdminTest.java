package io.cipherd.client;

import static io.cipherd.client.Testdata.keyName;
import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cipherd.api.v1.ErrorReason;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Key administration and the lifecycle's typed refusals. */
class KeyAdminTest {
  private static CipherdClient client;

  @BeforeAll
  static void connect() throws Exception {
    client = SharedServer.client();
  }

  @AfterAll
  static void close() {
    if (client != null) {
      client.close();
    }
  }

  @Test
  void createGetRotateListAndPolicy() {
    String key = keyName();
    Key created = client.keys().create(key, Mode.CHACHA);
    assertEquals(1, created.currentVersion());
    assertEquals(KeyState.ENABLED, created.state());
    assertEquals(Mode.CHACHA, created.version(1).orElseThrow().mode());
    assertThrows(AlreadyExistsException.class, () -> client.keys().create(key, Mode.GCM));
    Key rotated = client.keys().rotate(key, Mode.SIV, 0, false);
    assertEquals(2, rotated.currentVersion());
    assertEquals(Mode.SIV, rotated.version(2).orElseThrow().mode());
    assertTrue(client.keys().list().stream().anyMatch(k -> k.name().equals(key)));
    Key updated =
        client
            .keys()
            .updatePolicy(key, KeyPolicy.DEFAULT.withAutoRotatePeriod(Duration.ofDays(30)));
    assertEquals(Duration.ofDays(30), updated.policy().autoRotatePeriod());
    assertEquals(Duration.ofDays(30), client.keys().get(key).policy().autoRotatePeriod());
  }

  @Test
  void listByPagesOfOneReadsTheSameKeysInNameOrder() {
    client.keys().create(keyName(), Mode.GCM);
    client.keys().create(keyName(), Mode.GCM);
    List<String> all = client.keys().list().stream().map(Key::name).toList();
    List<String> paged = client.keys().list(1).stream().map(Key::name).toList();
    assertEquals(all, paged);
    assertTrue(paged.size() >= 2, "two keys were created");
    assertEquals(paged.stream().sorted().toList(), paged);
    assertThrows(IllegalArgumentException.class, () -> client.keys().list(-1));
  }

  @Test
  void disabledKeyRefusesUntilEnabled() {
    String key = keyName();
    client.keys().create(key, Mode.GCM);
    String ciphertext = client.encrypt(key, utf8("x"));
    assertEquals(KeyState.DISABLED, client.keys().disable(key).state());
    KeyDisabledException e =
        assertThrows(KeyDisabledException.class, () -> client.decrypt(ciphertext));
    assertEquals(ErrorReason.KEY_DISABLED, e.reason());
    assertInstanceOf(FailedPreconditionException.class, e);
    client.keys().enable(key);
    assertArrayEquals(utf8("x"), client.decrypt(ciphertext));
  }

  @Test
  void versionDestructionScheduledRefusesAndCancels() {
    String key = keyName();
    client.keys().create(key, Mode.GCM);
    String v1 = client.encrypt(key, utf8("old"));
    client.keys().rotate(key);
    Key scheduled = client.keys().scheduleVersionDestruction(key, List.of(1), Duration.ofDays(1));
    assertEquals(KeyVersionState.DESTRUCTION_SCHEDULED, scheduled.version(1).orElseThrow().state());
    assertThrows(KeyVersionDestructionScheduledException.class, () -> client.decrypt(v1));
    client.keys().cancelVersionDestruction(key, List.of(1));
    assertArrayEquals(utf8("old"), client.decrypt(v1));
  }

  @Test
  void retiringAVersionInUseSaysWhichVersions() {
    String key = keyName();
    client.keys().create(key, Mode.GCM);
    client.encrypt(key, utf8("in use"));
    client.keys().rotate(key);
    KeyVersionsInUseException e =
        assertThrows(
            KeyVersionsInUseException.class,
            () -> client.keys().retireVersions(key, 2, Duration.ofHours(1), null, true));
    assertEquals(List.of(1), e.versions());
    assertTrue(e.source().isEmpty());
    KeyCensus census = client.keys().census(key, Duration.ofHours(1));
    assertTrue(census.versions().stream().anyMatch(v -> v.version() == 1 && v.inUse()));
    assertEquals(1, census.versions().get(0).usage().encryptions());
    // A new subject's key is wrapped under the current version, which the census counts.
    client.encrypt(key, utf8("a subject's"), new byte[0], Subject.of("census-subject"));
    census = client.keys().census(key, Duration.ofHours(1));
    assertEquals(
        List.of(0L, 1L), census.versions().stream().map(KeyCensus.Version::subjectKeys).toList());
  }

  @Test
  void importedKeyMaterialEncrypts() {
    String key = keyName();
    Key imported = client.keys().importKey(key, Mode.GCM, new byte[32], false);
    assertTrue(imported.version(1).orElseThrow().imported());
    assertArrayEquals(utf8("y"), client.decrypt(client.encrypt(key, utf8("y"))));
  }

  @Test
  void anInventoryStillCountingAVersionRefusesItsRetirement() {
    String key = keyName();
    client.keys().create(key, Mode.GCM);
    client.keys().rotate(key);
    DataInventory scan =
        new DataInventory(
            key, "postgres:users.email", java.time.Instant.now(), 7, Map.of(1, 5L, 2, 2L));
    KeyVersionsInUseException e =
        assertThrows(
            KeyVersionsInUseException.class,
            () -> client.keys().retireVersions(key, 2, null, null, true, List.of(scan)));
    assertEquals(List.of(1), e.versions());
    assertEquals("postgres:users.email", e.source().orElseThrow());
    DataInventory rewrapped =
        new DataInventory(key, "postgres:users.email", java.time.Instant.now(), 7, Map.of(2, 7L));
    Retirement retirement =
        client.keys().retireVersions(key, 2, null, null, true, List.of(rewrapped));
    assertEquals(List.of(1), retirement.retiredVersions());
  }
}
