package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The deterministic siv mode: determinism and what its associated data binds (vectors: {@link
 * WycheproofSivTest}).
 */
class SivTest {
  private static final HexFormat HEX = HexFormat.of();

  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);

  @AfterEach
  void closePools() {
    pools.close();
  }

  @Test
  void samePlaintextHeaderAndContext_giveTheSamePayload_anyChangeAnother() {
    SecretKey key = key512();
    byte[] header = new EnvelopeHeader("emails", 1, CipherMode.SIV).asciiBytes();
    byte[] context = "users.email".getBytes(StandardCharsets.UTF_8);
    byte[] plaintext = "alice@example.com".getBytes(StandardCharsets.UTF_8);

    byte[] first = encrypt(key, header, context, plaintext);

    assertThat(encrypt(key, header, context, plaintext)).isEqualTo(first);
    assertThat(first).hasSize(CipherMode.SIV.payloadLength(plaintext.length));
    assertThat(encrypt(key, header, "users.name".getBytes(StandardCharsets.UTF_8), plaintext))
        .isNotEqualTo(first);
    assertThat(
            encrypt(
                key,
                new EnvelopeHeader("emails", 2, CipherMode.SIV).asciiBytes(),
                context,
                plaintext))
        .isNotEqualTo(first);
    assertThat(encrypt(key, header, context, "bob@example.com".getBytes(StandardCharsets.UTF_8)))
        .isNotEqualTo(first);
  }

  @Test
  void wrongContextOrChangedByte_failsAsDecryptionFailed() {
    SecretKey key = key512();
    byte[] header = new EnvelopeHeader("emails", 1, CipherMode.SIV).asciiBytes();
    byte[] context = "users.email".getBytes(StandardCharsets.UTF_8);
    byte[] payload =
        encrypt(key, header, context, "alice@example.com".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(
            () -> decrypt(key, header, "other".getBytes(StandardCharsets.UTF_8), payload))
        .isInstanceOf(DecryptionFailedException.class);
    byte[] changed = payload.clone();
    changed[changed.length - 1] ^= 1;
    assertThatThrownBy(() -> decrypt(key, header, context, changed))
        .isInstanceOf(DecryptionFailedException.class);
  }

  private byte[] encrypt(SecretKey key, byte[] header, byte[] context, byte[] plaintext) {
    return CipherMode.SIV
        .family()
        .sealWithInsecureIv(pools, key, new byte[0], header, context, plaintext);
  }

  private byte[] decrypt(SecretKey key, byte[] header, byte[] context, byte[] payload) {
    byte[] out = new byte[payload.length];
    int length =
        CipherMode.SIV.family().open(pools, key, header, Bytes.of(context), Bytes.of(payload), out);
    return Arrays.copyOf(out, length);
  }

  private static SecretKey key512() {
    return new SecretKeySpec(NonceSource.bytes(64), "AES");
  }
}
