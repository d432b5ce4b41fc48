package io.cipherd.server.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A key's rules: which versions decrypt, which may be chosen to encrypt, ECB, and minimums that
 * fit.
 */
class KeyPolicyTest {
  private static KeyVersionInfo version(int number, CipherMode mode) {
    return KeyVersionInfo.generated(number, mode, 256, Instant.EPOCH);
  }

  @ParameterizedTest(
      name = "min_decryption {0}, min_encryption {1}, version {2}: decrypts {3}, may be chosen {4}")
  @CsvSource({
    "0, 0, 1, true, true",
    "2, 0, 1, false, false",
    "2, 0, 2, true, true",
    "0, 3, 2, true, false",
    "1, 3, 3, true, true"
  })
  void minimums_decideDecryptionAndChosenEncryption(
      int minDecryption, int minEncryption, int v, boolean decrypts, boolean chosen) {
    KeyPolicy policy = new KeyPolicy(minDecryption, minEncryption, false);

    assertThat(policy.allowsDecryption(v)).isEqualTo(decrypts);
    assertThat(policy.allowsEncryption(v)).isEqualTo(chosen);
    if (decrypts) {
      assertThatCode(() -> policy.checkDecryption("orders", v)).doesNotThrowAnyException();
    } else {
      assertThatThrownBy(() -> policy.checkDecryption("orders", v))
          .isInstanceOf(KeyPolicyViolationException.class)
          .hasMessageContaining("min_decryption_version");
    }
  }

  @Test
  void theCurrentVersion_alwaysEncrypts_whateverTheMinimums() {
    KeyPolicy policy = new KeyPolicy(0, 5, false);

    assertThatCode(
            () ->
                policy.checkEncryption(
                    "orders",
                    version(2, CipherMode.GCM),
                    /* chosenByCaller= */ false,
                    /* encryptions= */ 0))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                policy.checkEncryption(
                    "orders",
                    version(2, CipherMode.GCM),
                    /* chosenByCaller= */ true,
                    /* encryptions= */ 0))
        .isInstanceOf(KeyPolicyViolationException.class);
  }

  /**
   * A period of ~2⁶³ seconds once reached the rotation check, where creation time plus period
   * overflows.
   */
  @Test
  void autoRotatePeriod_aboveTenYears_isInvalidArgument_andTenYearsRotates() {
    assertThatThrownBy(() -> new KeyPolicy(0, 0, false, Duration.ofSeconds(Long.MAX_VALUE / 2), 0))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("3650 days");
    KeyPolicy tenYears = new KeyPolicy(0, 0, false, KeyPolicy.MAX_AUTO_ROTATE_PERIOD, 0);
    assertThat(tenYears.autoRotatePeriod()).isEqualTo(Duration.ofDays(3650));
  }

  @Test
  void ecb_encryptsOnlyWhenAllowed() {
    assertThatThrownBy(
            () -> KeyPolicy.DEFAULT.checkEncryption("legacy", version(1, CipherMode.ECB), false, 0))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("allow_ecb_encryption");
    assertThatCode(
            () ->
                new KeyPolicy(0, 0, true)
                    .checkEncryption("legacy", version(1, CipherMode.ECB), false, 0))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest(
      name = "{0} with max_encryptions_per_version {1} after {2} encryptions: encrypts {3}")
  @CsvSource({
    "GCM, 5, 4, true",
    "GCM, 5, 5, false",
    "GCM, 0, 1073741823, true",
    "GCM, 0, 1073741824, false",
    "CHACHA, 0, 1073741824, false",
    "XGCM, 0, 9223372036854775807, true",
    "XGCM, 2, 2, false"
  })
  void checkEncryption_encryptionLimit_isACapForCurrentAndChosenVersions(
      CipherMode mode, long max, long encryptions, boolean encrypts) {
    KeyPolicy policy = new KeyPolicy(0, 0, false, Duration.ZERO, max);

    for (boolean chosenByCaller : new boolean[] {false, true}) {
      if (encrypts) {
        assertThatCode(
                () ->
                    policy.checkEncryption("orders", version(1, mode), chosenByCaller, encryptions))
            .doesNotThrowAnyException();
      } else {
        assertThatThrownBy(
                () ->
                    policy.checkEncryption("orders", version(1, mode), chosenByCaller, encryptions))
            .isInstanceOf(KeyPolicyViolationException.class)
            .hasMessageContaining("version 1 of key 'orders' has reached its limit")
            .hasMessageContaining(max > 0 ? "max_encryptions_per_version" : "random 96-bit nonces");
      }
    }
  }

  @Test
  void checkFits_refusesMinimumsAboveTheCurrentVersion() {
    assertThatCode(() -> new KeyPolicy(3, 3, false).checkFits(3)).doesNotThrowAnyException();
    assertThatThrownBy(() -> new KeyPolicy(4, 0, false).checkFits(3))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("min_decryption_version 4");
    assertThatThrownBy(() -> new KeyPolicy(0, 4, false).checkFits(3))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("min_encryption_version 4");
  }

  @Test
  void negativeMinimums_areInvalid() {
    assertThatThrownBy(() -> new KeyPolicy(-1, 0, false))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> new KeyPolicy(0, -1, false))
        .isInstanceOf(InvalidArgumentException.class);
  }
}
