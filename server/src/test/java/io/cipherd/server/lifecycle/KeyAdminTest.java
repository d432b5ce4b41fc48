package io.cipherd.server.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyKind;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.CountingKeyStore;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.keys.NewKeyVersion;
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
    return ring.create(name, KeyTemplate.defaults());
  }

  @Test
  void create_withoutModeSizeOrPolicy_makesGcm256WithTheDefaultPolicy() {
    KeyMetadata created = createGcm("payments");

    assertThat(created.versions())
        .containsExactly(KeyVersionInfo.generated(1, CipherMode.GCM, 256, NOW));
    assertThat(created.policy()).isEqualTo(KeyPolicy.DEFAULT);
    assertThat(memory.readMaterial("payments", created.version(1)).getEncoded()).hasSize(32);
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"CBC", "CTR", "CFB", "OFB", "ECB"})
  void create_unauthenticatedModeWithoutAllowUnauthenticated_isRefused(CipherMode mode) {
    assertThatThrownBy(() -> ring.create("legacy", KeyTemplate.of(mode)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("allow_unauthenticated");

    assertThat(memory.readKey("legacy")).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"CBC", "CTR", "CFB", "OFB", "ECB"})
  void create_unauthenticatedModeWithAllowUnauthenticated_isCreated(CipherMode mode) {
    KeyMetadata created =
        ring.create("legacy", KeyTemplate.of(mode).withKeySizeBits(128).allowingUnauthenticated());

    assertThat(created.current().mode()).isEqualTo(mode);
    assertThat(created.current().keySizeBits()).isEqualTo(128);
  }

  @Test
  void create_chachaWith128Bits_isRefused() {
    assertThatThrownBy(
            () -> ring.create("c", KeyTemplate.of(CipherMode.CHACHA).withKeySizeBits(128)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("key_size_bits");

    assertThat(memory.readKey("c")).isEmpty();
  }

  @Test
  void create_chachaWithoutSize_is256Bits() {
    assertThat(ring.create("c", KeyTemplate.of(CipherMode.CHACHA)).current().keySizeBits())
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
    assertThatThrownBy(() -> ring.create("k", KeyTemplate.defaults(), new KeyPolicy(2, 0, false)))
        .isInstanceOf(KeyPolicyViolationException.class);

    assertThat(memory.readKey("k")).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void encryptThenDecrypt_roundTripsInEveryMode(CipherMode mode) {
    ring.create("k", KeyTemplate.of(mode).allowingUnauthenticated(), new KeyPolicy(0, 0, true));

    String ciphertext = encrypt("k", 0, "attack at dawn");

    assertThat(ciphertext).startsWith("<k/v1:" + mode.headerName() + ">");
    assertThat(decrypt(ciphertext)).isEqualTo("attack at dawn");
  }

  @Test
  void rotate_withoutMode_keepsTheCurrentModeAndSize() {
    ring.create(
        "legacy", KeyTemplate.of(CipherMode.CBC).withKeySizeBits(192).allowingUnauthenticated());

    KeyMetadata rotated =
        ring.rotate("legacy", KeyTemplate.defaults()); // same mode: no flag needed

    assertThat(rotated.current()).isEqualTo(KeyVersionInfo.generated(2, CipherMode.CBC, 192, NOW));
  }

  @Test
  void rotate_withMode_changesMode_andOldCiphertextsStillDecrypt() {
    createGcm("k");
    String old = encrypt("k", 0, "v1 data");

    KeyMetadata rotated = ring.rotate("k", KeyTemplate.of(CipherMode.CHACHA));

    assertThat(rotated.current().mode()).isEqualTo(CipherMode.CHACHA);
    String fresh = encrypt("k", 0, "v2 data");
    assertThat(fresh).startsWith("<k/v2:chacha>");
    assertThat(decrypt(old)).isEqualTo("v1 data");
    assertThat(decrypt(fresh)).isEqualTo("v2 data");
  }

  @Test
  void rotate_gcm128IntoChachaWithoutSize_uses256Bits() {
    ring.create("k", KeyTemplate.of(CipherMode.GCM).withKeySizeBits(128));

    assertThat(ring.rotate("k", KeyTemplate.of(CipherMode.CHACHA)).current().keySizeBits())
        .isEqualTo(256);
  }

  @Test
  void rotate_intoUnauthenticatedModeWithoutFlag_isRefusedAndAddsNoVersion() {
    createGcm("k");

    assertThatThrownBy(() -> ring.rotate("k", KeyTemplate.of(CipherMode.CTR)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("allow_unauthenticated");

    assertThat(memory.readKey("k").orElseThrow().currentVersion()).isEqualTo(1);
    assertThat(
            ring.rotate("k", KeyTemplate.of(CipherMode.CTR).allowingUnauthenticated())
                .current()
                .mode())
        .isEqualTo(CipherMode.CTR);
  }

  @Test
  void create_indexTemplate_makesAnHmacVersion_thatNoCipherModeRotationJoins() {
    KeyMetadata created = ring.create("idx", KeyTemplate.index());

    assertThat(created.current().type()).isSameAs(KeyType.INDEX);
    assertThat(created.current().kind()).isEqualTo(KeyKind.INDEX);
    assertThat(created.current().mode()).isNull();
    assertThat(created.current().keySizeBits()).isEqualTo(256);
    assertThatThrownBy(() -> ring.rotate("idx", KeyTemplate.of(CipherMode.GCM)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("is an index key");
    assertThat(ring.rotate("idx", KeyTemplate.defaults()).current().type()).isSameAs(KeyType.INDEX);
  }

  @Test
  void template_ofTheLegacyType_isRefused() {
    assertThatThrownBy(() -> new KeyTemplate(KeyType.LEGACY, KeyTemplate.DEFAULT_SIZE, false))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("legacy_cipher");
  }

  @Test
  void importVersion_sizeOtherThanTheMaterials_isRefused() {
    assertThatThrownBy(
            () ->
                ring.importVersion(
                    "ext", KeyTemplate.of(CipherMode.GCM).withKeySizeBits(128), new byte[32]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("key_material is 256 bits");
    assertThat(memory.readKey("ext")).isEmpty();
  }

  @Test
  void rotate_unknownKey_throwsKeyNotFound() {
    assertThatThrownBy(() -> ring.rotate("nope", KeyTemplate.defaults()))
        .isInstanceOf(KeyNotFoundException.class);
  }

  @Test
  void rotate_racingAConcurrentWriter_retriesOnFreshStateAndAddsExactlyOneVersion() {
    createGcm("k");
    NewKeyVersion intruder =
        new NewKeyVersion(KeyVersionInfo.imported(2, CipherMode.GCM, 256, NOW), new byte[32]);
    store.beforeNextAddVersion(
        () -> memory.addVersion("k", 1, intruder)); // another writer gets there first

    KeyMetadata rotated = ring.rotate("k", KeyTemplate.defaults());

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
                  KeyVersionInfo.imported(current + 1, CipherMode.GCM, 256, NOW), new byte[32]));
          store.beforeNextAddVersion(intrude[0]);
        };
    store.beforeNextAddVersion(intrude[0]);

    assertThatThrownBy(() -> ring.rotate("k", KeyTemplate.defaults()))
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

    KeyMetadata imported = ring.importVersion("ext", KeyTemplate.defaults(), material);

    assertThat(imported.versions())
        .containsExactly(KeyVersionInfo.imported(1, CipherMode.GCM, 256, NOW));
    assertThat(imported.policy()).isEqualTo(KeyPolicy.DEFAULT);
    assertThat(memory.readMaterial("ext", imported.version(1)).getEncoded()).isEqualTo(material);
  }

  @Test
  void importVersion_existingKey_addsAVersionThatEncryptsWithTheImportedBytes() {
    createGcm("k");
    byte[] material = new byte[16];
    Arrays.fill(material, (byte) 3);

    KeyMetadata imported =
        ring.importVersion("k", KeyTemplate.of(CipherMode.CTR).allowingUnauthenticated(), material);

    assertThat(imported.current()).isEqualTo(KeyVersionInfo.imported(2, CipherMode.CTR, 128, NOW));
    ParsedEnvelope envelope = ParsedEnvelope.parse(encrypt("k", 0, "imported"));
    assertThat(envelope.header().version()).isEqualTo(2);
    byte[] plaintext = ring.cipher().decrypt(envelope, new SecretKeySpec(material, "AES"), CONTEXT);
    assertThat(new String(plaintext, StandardCharsets.UTF_8)).isEqualTo("imported");
  }

  @Test
  void importVersion_callerWipesMaterialAfterwards_storedVersionUnchanged() {
    byte[] material = new byte[32];
    Arrays.fill(material, (byte) 9);
    ring.importVersion("ext", KeyTemplate.defaults(), material);

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
                new NewKeyVersion(
                    KeyVersionInfo.generated(1, CipherMode.GCM, 256, NOW), new byte[32]),
                KeyPolicy.DEFAULT));

    KeyMetadata imported = ring.importVersion("ext", KeyTemplate.defaults(), new byte[32]);

    assertThat(imported.currentVersion()).isEqualTo(2);
    assertThat(imported.current().imported()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 15, 20, 31, 33})
  void importVersion_wrongSizeForGcm_isRefusedAndStoresNothing(int bytes) {
    assertThatThrownBy(
            () -> ring.importVersion("ext", KeyTemplate.of(CipherMode.GCM), new byte[bytes]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("key_material");

    assertThat(memory.readKey("ext")).isEmpty();
  }

  @Test
  void importVersion_128BitKeyForChacha_isRefused() {
    createGcm("k");

    assertThatThrownBy(
            () -> ring.importVersion("k", KeyTemplate.of(CipherMode.CHACHA), new byte[16]))
        .isInstanceOf(InvalidArgumentException.class);

    assertThat(memory.readKey("k").orElseThrow().currentVersion()).isEqualTo(1);
  }

  @Test
  void importVersion_unauthenticatedModeWithoutFlag_isRefused() {
    assertThatThrownBy(
            () -> ring.importVersion("ext", KeyTemplate.of(CipherMode.ECB), new byte[32]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("allow_unauthenticated");
  }

  @Test
  void updatePolicy_minDecryptionVersion_makesOlderVersionsRefuseToDecrypt_evenWhenCached() {
    createGcm("k");
    String v1 = encrypt("k", 0, "old");
    assertThat(decrypt(v1)).isEqualTo("old"); // v1 is now cached
    ring.rotate("k", KeyTemplate.defaults());
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
    ring.rotate("k", KeyTemplate.defaults());
    ring.updatePolicy("k", new KeyPolicy(2, 0, false));

    ring.updatePolicy("k", KeyPolicy.DEFAULT);

    assertThat(decrypt(v1)).isEqualTo("old");
  }

  @Test
  void updatePolicy_minimumAboveTheCurrentVersion_isRefusedAndChangesNothing() {
    createGcm("k");
    ring.rotate("k", KeyTemplate.defaults());

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
    ring.rotate("zeta", KeyTemplate.defaults());

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
