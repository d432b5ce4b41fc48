package io.cipherd.server.keystore.kek;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PKCS#11 KEK on a real SoftHSM2 token (Debian's softhsm2, {@link SoftHsmToken}), opened as
 * {@code --kek=pkcs11} is, through the {@link KeyEncryptionKeyFactory} service: wraps unwrap to the
 * same bytes, a wrap is bound to its associated data, and a changed blob does not unwrap.
 */
class Pkcs11KekTest {
  private static final byte[] VERSION_1 = bytes("cipherd key-version name=payments version=1");
  private static final byte[] VERSION_2 = bytes("cipherd key-version name=payments version=2");

  private static KeyEncryptionKey kek;

  @BeforeAll
  static void open() throws Exception {
    kek =
        KeyEncryptionKeyFactory.find(Pkcs11KekFactory.NAME)
            .orElseThrow()
            .open(SoftHsmToken.get().options());
  }

  @AfterAll
  static void close() {
    if (kek != null) {
      kek.close();
    }
  }

  @Test
  void wrap_unwrapsToTheSameBytes_andNeverTwiceTheSameBlob() {
    byte[] material = new byte[32];
    material[0] = 7;
    String first = kek.wrap(material, VERSION_1);
    String second = kek.wrap(material, VERSION_1);
    assertThat(kek.id()).isEqualTo("pkcs11:cipherd-kek");
    assertThat(first).startsWith("pkcs11:v1:").isNotEqualTo(second);
    assertThat(Base64.getDecoder().decode(first.substring("pkcs11:v1:".length())))
        .hasSize(12 + 32 + 16);
    assertThat(kek.unwrap(first, VERSION_1)).isEqualTo(material);
    assertThat(kek.unwrap(second, VERSION_1)).isEqualTo(material);
  }

  @Test
  void blob_underOtherAssociatedData_doesNotUnwrap() {
    String wrapped = kek.wrap(new byte[32], VERSION_1);
    assertThatThrownBy(() -> kek.unwrap(wrapped, VERSION_2))
        .isInstanceOf(KekUnwrapException.class)
        .hasMessage("pkcs11:cipherd-kek did not unwrap the blob");
  }

  @Test
  void changedBlob_doesNotUnwrap() {
    byte[] blob =
        Base64.getDecoder()
            .decode(kek.wrap(new byte[32], VERSION_1).substring("pkcs11:v1:".length()));
    for (int at : new int[] {0, 20, blob.length - 1}) {
      byte[] changed = blob.clone();
      changed[at] ^= 1;
      String text = "pkcs11:v1:" + Base64.getEncoder().encodeToString(changed);
      assertThatThrownBy(() -> kek.unwrap(text, VERSION_1)).isInstanceOf(KekUnwrapException.class);
    }
    assertThatThrownBy(() -> kek.unwrap("vault:v1:AAAA", VERSION_1))
        .isInstanceOf(KekUnwrapException.class);
  }

  @Test
  void keyLabelNotOnTheToken_isRefusedByName() throws Exception {
    Map<String, String> options = new HashMap<>(SoftHsmToken.get().options());
    options.put("key-label", "no-such-key");
    assertThatThrownBy(() -> new Pkcs11KekFactory().open(options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no AES secret key labelled 'no-such-key'");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
