package io.cipherd.server.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.Mode;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Key administration: create, rotate, import, policy and listing, on the in-memory store and real
 * ciphers.
 */
class KeyAdminTest {
  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final byte[] CONTEXT = "tenant=42".getBytes(StandardCharsets.UTF_8);

  private final InMemoryKeyStore memory = new InMemoryKeyStore();
  private final CountingKeyStore store = new CountingKeyStore(memory);
  private final Keys ring = Keys.over(store, Clock.fixed(NOW, ZoneOffset.UTC));

  @AfterEach
  void closePools() {
    ring.close();
  }

  private String encrypt(String name, int version, String plaintext) {
    return ring.encrypt(name, version, plaintext, CONTEXT);
  }

  private String decrypt(String ciphertext) {
    return ring.decrypt(ciphertext, CONTEXT);
  }

  private KeyMetadata createGcm(String name) {
    return ring.create(name, null, 0, false, null);
  }

  @Test
  void create_withoutModeSizeOrPolicy_makesGcm256WithTheDefaultPolicy() {
    KeyMetadata created = createGcm("payments");

    assertThat(created.versions())
        .containsExactly(new KeyVersionInfo(1, Mode.GCM, 256, NOW, false));
    assertThat(created.policy()).isEqualTo(KeyPolicy.DEFAULT);
    assertThat(memory.readMaterial("payments", created.version(1)).getEncoded()).hasSize(32);
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"CBC", "CTR", "CFB", "OFB", "ECB"})
  void create_unauthenticatedModeWithoutAllowUnauthenticated_isRefused(Mode mode) {
    assertThatThrownBy(() -> ring.create("legacy", mode, 0, false, null))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("allow_unauthenticated");

    assertThat(memory.readKey("legacy")).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"CBC", "CTR", "CFB", "OFB", "ECB"})
  void create_unauthenticatedModeWithAllowUnauthenticated_isCreated(Mode mode) {
    KeyMetadata created = ring.create("legacy", mode, 128, true, null);

    assertThat(created.current().mode()).isEqualTo(mode);
    assertThat(created.current().keySizeBits()).isEqualTo(128);
  }

  @Test
  void create_chachaWith128Bits_isRefused() {
    assertThatThrownBy(() -> ring.create("c", Mode.CHACHA, 128, false, null))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("key_size_bits");

    assertThat(memory.readKey("c")).isEmpty();
  }

  @Test
  void create_chachaWithoutSize_is256Bits() {
    assertThat(ring.create("c", Mode.CHACHA, 0, false, null).current().keySizeBits())
        .isEqualTo(256);
  }

  @Test
  void create_existingName_throwsKeyAlreadyExists() {
    createGcm("payments");

    assertThatThrownBy(() -> createGcm("payments")).isInstanceOf(KeyAlreadyExistsException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Payments", "has space", "-leading-dash", "a/b"})
  void create_invalidName_isRefused(String name) {
    assertThatThrownBy(() -> createGcm(name)).isInstanceOf(InvalidArgumentException.class);

    assertThat(memory.listKeyNames()).isEmpty();
  }

  @Test
  void create_policyNamingVersionTwo_isRefused() {
    assertThatThrownBy(() -> ring.create("k", null, 0, false, new KeyPolicy(2, 0, false)))
        .isInstanceOf(KeyPolicyViolationException.class);

    assertThat(memory.readKey("k")).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"HMAC", "LEGACY"},
      mode = EnumSource.Mode.EXCLUDE)
  void encryptThenDecrypt_roundTripsInEveryMode(Mode mode) {
    ring.create("k", mode, 0, true, new KeyPolicy(0, 0, true));

    String ciphertext = encrypt("k", 0, "attack at dawn");

    assertThat(ciphertext).startsWith("<k/v1:" + mode.headerName() + ">");
    assertThat(decrypt(ciphertext)).isEqualTo("attack at dawn");
  }

  @Test
  void rotate_withoutMode_keepsTheCurrentModeAndSize() {
    ring.create("legacy", Mode.CBC, 192, true, null);

    KeyMetadata rotated = ring.rotate("legacy", null, 0, false); // same mode: no flag needed

    assertThat(rotated.current()).isEqualTo(new KeyVersionInfo(2, Mode.CBC, 192, NOW, false));
  }

  @Test
  void rotate_withMode_changesMode_andOldCiphertextsStillDecrypt() {
    createGcm("k");
    String old = encrypt("k", 0, "v1 data");

    KeyMetadata rotated = ring.rotate("k", Mode.CHACHA, 0, false);

    assertThat(rotated.current().mode()).isEqualTo(Mode.CHACHA);
    String fresh = encrypt("k", 0, "v2 data");
    assertThat(fresh).startsWith("<k/v2:chacha>");
    assertThat(decrypt(old)).isEqualTo("v1 data");
    assertThat(decrypt(fresh)).isEqualTo("v2 data");
  }

  @Test
  void rotate_gcm128IntoChachaWithoutSize_uses256Bits() {
    ring.create("k", Mode.GCM, 128, false, null);

    assertThat(ring.rotate("k", Mode.CHACHA, 0, false).current().keySizeBits()).isEqualTo(256);
  }

  @Test
  void rotate_intoUnauthenticatedModeWithoutFlag_isRefusedAndAddsNoVersion() {
    createGcm("k");

    assertThatThrownBy(() -> ring.rotate("k", Mode.CTR, 0, false))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("allow_unauthenticated");

    assertThat(memory.readKey("k").orElseThrow().currentVersion()).isEqualTo(1);
    assertThat(ring.rotate("k", Mode.CTR, 0, true).current().mode()).isEqualTo(Mode.CTR);
  }

  @Test
  void rotate_unknownKey_throwsKeyNotFound() {
    assertThatThrownBy(() -> ring.rotate("nope", null, 0, false))
        .isInstanceOf(KeyNotFoundException.class);
  }

  @Test
  void rotate_racingAConcurrentWriter_retriesOnFreshStateAndAddsExactlyOneVersion() {
    createGcm("k");
    NewKeyVersion intruder =
        new NewKeyVersion(new KeyVersionInfo(2, Mode.GCM, 256, NOW, true), new byte[32]);
    store.beforeNextAddVersion(
        () -> memory.addVersion("k", 1, intruder)); // another writer gets there first

    KeyMetadata rotated = ring.rotate("k", null, 0, false);

    assertThat(rotated.currentVersion()).isEqualTo(3);
    assertThat(rotated.version(2)).isEqualTo(intruder.info());
    assertThat(rotated.version(3).imported()).isFalse();
    assertThat(memory.readKey("k")).contains(rotated);
    assertThat(store.calls("addVersion")).isEqualTo(2);
    assertThat(ring.forEncryption("k", 0).header().version()).isEqualTo(3);
  }

  @Test
  void rotate_losingEveryAttempt_givesUpWithConcurrentUpdateAfterFiveTries() {
    createGcm("k");
    Runnable[] intrude = new Runnable[1];
    intrude[0] =
        () -> {
          int current = memory.readKey("k").orElseThrow().currentVersion();
          memory.addVersion(
              "k",
              current,
              new NewKeyVersion(
                  new KeyVersionInfo(current + 1, Mode.GCM, 256, NOW, true), new byte[32]));
          store.beforeNextAddVersion(intrude[0]);
        };
    store.beforeNextAddVersion(intrude[0]);

    assertThatThrownBy(() -> ring.rotate("k", null, 0, false))
        .isInstanceOf(ConcurrentKeyUpdateException.class);

    KeyMetadata now = memory.readKey("k").orElseThrow();
    assertThat(now.currentVersion()).isEqualTo(6);
    assertThat(now.versions())
        .allMatch(v -> v.version() == 1 || v.imported()); // none of them is the ring's
  }

  @Test
  void importVersion_unknownKey_createsItWithTheImportedBytesAsVersionOne() {
    byte[] material = new byte[32];
    Arrays.fill(material, (byte) 7);

    KeyMetadata imported = ring.importVersion("ext", null, material, false);

    assertThat(imported.versions())
        .containsExactly(new KeyVersionInfo(1, Mode.GCM, 256, NOW, true));
    assertThat(imported.policy()).isEqualTo(KeyPolicy.DEFAULT);
    assertThat(memory.readMaterial("ext", imported.version(1)).getEncoded()).isEqualTo(material);
  }

  @Test
  void importVersion_existingKey_addsAVersionThatEncryptsWithTheImportedBytes() {
    createGcm("k");
    byte[] material = new byte[16];
    Arrays.fill(material, (byte) 3);

    KeyMetadata imported = ring.importVersion("k", Mode.CTR, material, true);

    assertThat(imported.current()).isEqualTo(new KeyVersionInfo(2, Mode.CTR, 128, NOW, true));
    ParsedEnvelope envelope = ParsedEnvelope.parse(encrypt("k", 0, "imported"));
    assertThat(envelope.header().version()).isEqualTo(2);
    byte[] plaintext = ring.cipher().decrypt(envelope, new SecretKeySpec(material, "AES"), CONTEXT);
    assertThat(new String(plaintext, StandardCharsets.UTF_8)).isEqualTo("imported");
  }

  @Test
  void importVersion_callerWipesMaterialAfterwards_storedVersionUnchanged() {
    byte[] material = new byte[32];
    Arrays.fill(material, (byte) 9);
    ring.importVersion("ext", null, material, false);

    Arrays.fill(material, (byte) 0);

    byte[] stored =
        memory.readMaterial("ext", memory.readKey("ext").orElseThrow().version(1)).getEncoded();
    assertThat(stored).containsOnly((byte) 9);
  }

  @Test
  void importVersion_racingACreateOfTheSameName_becomesVersionTwo() {
    store.beforeNextCreateKey(
        () ->
            memory.createKey(
                "ext",
                new NewKeyVersion(new KeyVersionInfo(1, Mode.GCM, 256, NOW, false), new byte[32]),
                KeyPolicy.DEFAULT));

    KeyMetadata imported = ring.importVersion("ext", null, new byte[32], false);

    assertThat(imported.currentVersion()).isEqualTo(2);
    assertThat(imported.current().imported()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 15, 20, 31, 33})
  void importVersion_wrongSizeForGcm_isRefusedAndStoresNothing(int bytes) {
    assertThatThrownBy(() -> ring.importVersion("ext", Mode.GCM, new byte[bytes], false))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("key_material");

    assertThat(memory.readKey("ext")).isEmpty();
  }

  @Test
  void importVersion_128BitKeyForChacha_isRefused() {
    createGcm("k");

    assertThatThrownBy(() -> ring.importVersion("k", Mode.CHACHA, new byte[16], false))
        .isInstanceOf(InvalidArgumentException.class);

    assertThat(memory.readKey("k").orElseThrow().currentVersion()).isEqualTo(1);
  }

  @Test
  void importVersion_unauthenticatedModeWithoutFlag_isRefused() {
    assertThatThrownBy(() -> ring.importVersion("ext", Mode.ECB, new byte[32], false))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("allow_unauthenticated");
  }

  @Test
  void updatePolicy_minDecryptionVersion_makesOlderVersionsRefuseToDecrypt_evenWhenCached() {
    createGcm("k");
    String v1 = encrypt("k", 0, "old");
    assertThat(decrypt(v1)).isEqualTo("old"); // v1 is now cached
    ring.rotate("k", null, 0, false);
    String v2 = encrypt("k", 0, "new");

    ring.updatePolicy("k", new KeyPolicy(2, 0, false));

    assertThatThrownBy(() -> decrypt(v1))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("min_decryption_version");
    assertThat(decrypt(v2)).isEqualTo("new");
    assertThat(memory.readKey("k").orElseThrow().versions()).hasSize(2); // refused, never deleted
  }

  @Test
  void updatePolicy_minDecryptionVersionLowered_letsOldVersionsDecryptAgain() {
    createGcm("k");
    String v1 = encrypt("k", 0, "old");
    ring.rotate("k", null, 0, false);
    ring.updatePolicy("k", new KeyPolicy(2, 0, false));

    ring.updatePolicy("k", KeyPolicy.DEFAULT);

    assertThat(decrypt(v1)).isEqualTo("old");
  }

  @Test
  void updatePolicy_minimumAboveTheCurrentVersion_isRefusedAndChangesNothing() {
    createGcm("k");
    ring.rotate("k", null, 0, false);

    assertThatThrownBy(() -> ring.updatePolicy("k", new KeyPolicy(3, 0, false)))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("min_decryption_version 3");
    assertThatThrownBy(() -> ring.updatePolicy("k", new KeyPolicy(0, 3, false)))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("min_encryption_version 3");

    assertThat(memory.readKey("k").orElseThrow().policy()).isEqualTo(KeyPolicy.DEFAULT);
  }

  @Test
  void updatePolicy_unknownKey_throwsKeyNotFound() {
    assertThatThrownBy(() -> ring.updatePolicy("nope", KeyPolicy.DEFAULT))
        .isInstanceOf(KeyNotFoundException.class);
  }

  @Test
  void list_returnsEveryKeyInNameOrder_andDescribeSeesRotations() {
    createGcm("zeta");
    createGcm("alpha");
    ring.rotate("zeta", null, 0, false);

    createGcm("mu");
    assertThat(ring.list("", 10))
        .extracting(KeyMetadata::name)
        .containsExactly("alpha", "mu", "zeta");
    assertThat(ring.list("alpha", 1)).extracting(KeyMetadata::name).containsExactly("mu");
    assertThat(ring.list("mu", 10)).extracting(KeyMetadata::name).containsExactly("zeta");
    assertThat(ring.describe("zeta").currentVersion()).isEqualTo(2);
    assertThatThrownBy(() -> ring.describe("nope")).isInstanceOf(KeyNotFoundException.class);
  }
}
