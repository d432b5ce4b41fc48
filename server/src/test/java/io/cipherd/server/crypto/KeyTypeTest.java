package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import javax.crypto.Mac;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Key kinds and types apart from cipher modes, and the names stores record them by. */
class KeyTypeTest {
  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void encryptionType_isItsModesWithItsHeaderName(CipherMode mode) {
    KeyType type = mode;

    assertThat(type.kind()).isEqualTo(KeyKind.ENCRYPTION);
    assertThat(type.mode()).isSameAs(mode);
    assertThat(type.typeName()).isEqualTo(mode.headerName());
    assertThat(type.keySizesBits()).isEqualTo(mode.keySizesBits());
    assertThat((KeyType) mode).isSameAs(type);
  }

  @Test
  void everyType_roundTripsThroughItsStoredName() {
    assertThat(KeyType.values()).hasSize(CipherMode.values().length + 3);
    for (KeyType type : KeyType.values()) {
      assertThat(KeyType.fromName(type.typeName())).isSameAs(type);
    }
    assertThat(KeyType.fromName("aes")).isNull();
  }

  @Test
  void index_isAnHmacKey_withAMacTheJdkProvides_andNoCipherMode() throws Exception {
    assertThat(Mac.getInstance(KeyType.INDEX.keyAlgorithm())).isNotNull();
    assertThat(KeyType.INDEX.kind()).isEqualTo(KeyKind.INDEX);
    assertThat(KeyType.INDEX.mode()).isNull();
    assertThat(KeyType.INDEX.typeName()).isEqualTo("hmac");
    assertThat(KeyType.INDEX.acceptsKeySize(256)).isTrue();
  }

  @Test
  void ff1_isAFormatPreservingAesKey_withNoCipherMode() {
    assertThat(KeyType.FF1.kind()).isEqualTo(KeyKind.FORMAT_PRESERVING);
    assertThat(KeyType.FF1.mode()).isNull();
    assertThat(KeyType.FF1.typeName()).isEqualTo("ff1");
    assertThat(KeyType.FF1.keyAlgorithm()).isEqualTo("AES");
    assertThat(KeyType.FF1.keySizesBits()).containsExactlyInAnyOrder(128, 192, 256);
    assertThat(KeyType.FF1.defaultKeySizeBits()).isEqualTo(256);
  }

  @Test
  void legacy_isAKindOfItsOwn_thatHasNoCipherMode() {
    assertThat(KeyType.LEGACY.kind()).isEqualTo(KeyKind.LEGACY);
    assertThat(KeyType.LEGACY.mode()).isNull();
    assertThat(KeyType.LEGACY.typeName()).isEqualTo("legacy");
    assertThat(KeyType.LEGACY.acceptsKeySize(128))
        .as("its sizes are its legacy cipher's")
        .isFalse();
  }
}
