package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's per-thread buffers hold no plaintext or context once an operation returns or throws.
 */
class WorkBuffersTest {
  private static final ByteString SECRET =
      ByteString.copyFromUtf8("the secret plaintext, long enough to see");
  private static final ByteString CONTEXT = ByteString.copyFromUtf8("tenant=7");

  private final Keys keyRing = Keys.over(new InMemoryKeyStore(), Clock.systemUTC());
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final CryptoEngine engine =
      new CryptoEngine(keyRing.cache(), pools, Authorizer.ALLOW_ALL, CryptoObserver.NONE);

  @AfterEach
  void close() {
    pools.close();
  }

  @Test
  void encrypt_decrypt_andReEncrypt_leaveNoPlaintextOrContextBehind() {
    keyRing.create("k", KeyTemplate.of(CipherMode.GCM));
    ByteString ciphertext = engine.encrypt("k", 0, SECRET, CONTEXT).ciphertext();
    assertWiped();

    assertThat(ByteString.copyFrom(engine.decrypt(ciphertext.toStringUtf8(), CONTEXT).plaintext()))
        .isEqualTo(SECRET);
    assertWiped();

    keyRing.rotate("k", KeyTemplate.defaults());
    ByteString rewrapped =
        engine.reEncrypt(ciphertext.toStringUtf8(), CONTEXT, "").encrypted().ciphertext();
    assertWiped();
    assertThat(rewrapped.toStringUtf8()).startsWith("<k/v2:gcm>");
    assertThat(ByteString.copyFrom(engine.decrypt(rewrapped.toStringUtf8(), CONTEXT).plaintext()))
        .isEqualTo(SECRET);
  }

  @Test
  void aFailedReEncrypt_leavesNoPlaintextBehind_evenWhenOnlyTheTargetFails() {
    keyRing.create("k", KeyTemplate.of(CipherMode.GCM));
    ByteString ciphertext = engine.encrypt("k", 0, SECRET, CONTEXT).ciphertext();

    // The decryption succeeds, the encryption to a key that does not exist fails.
    assertThatThrownBy(() -> engine.reEncrypt(ciphertext.toStringUtf8(), CONTEXT, "no-such-key"));
    assertWiped();

    assertThatThrownBy(
        () -> engine.reEncrypt(ciphertext.toStringUtf8(), ByteString.copyFromUtf8("wrong"), ""));
    assertWiped();
  }

  /**
   * Ciphertexts given as Strings are read one byte per char, which would map 'Ł' (U+0141) to 'A'
   * and any U+01xx to the ASCII character xx: a non-ASCII ciphertext must fail exactly as its UTF-8
   * bytes do, never decrypt.
   */
  @Test
  void stringCiphertexts_decryptAsTheirBytesDo_andNonAsciiOnesNeverDecrypt() {
    keyRing.create("k", KeyTemplate.of(CipherMode.GCM));
    String ciphertext = engine.encrypt("k", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
    assertThat(ByteString.copyFrom(engine.decrypt(ciphertext, CONTEXT).plaintext()))
        .isEqualTo(SECRET);
    assertThat(engine.reEncrypt(ciphertext, CONTEXT, "").sourceVersion()).isEqualTo(1);
    assertWiped();

    // The payload's first digit, swapped for the non-ASCII char whose low byte is that digit.
    int at = ciphertext.indexOf('>') + 1;
    char lookalike = (char) (0x100 + ciphertext.charAt(at));
    String disguised = ciphertext.substring(0, at) + lookalike + ciphertext.substring(at + 1);
    assertThatThrownBy(() -> engine.decrypt(disguised, CONTEXT)).hasMessageContaining("base64");
    assertThatThrownBy(() -> engine.reEncrypt(disguised, CONTEXT, ""))
        .hasMessageContaining("base64");
    assertWiped();
    String disguisedName = "<\u014b/v1:gcm>" + ciphertext.substring(ciphertext.indexOf('>') + 1);
    assertThatThrownBy(() -> Envelope.peekHeader(disguisedName)).hasMessageContaining("key name");
  }

  @Test
  void itemsLargerThanTheKeptSize_getArraysOfTheirOwn() {
    WorkBuffers buffers = WorkBuffers.forThread();
    byte[] kept = buffers.input(100);
    assertThat(buffers.input(WorkBuffers.MAX_KEPT + 1))
        .isNotSameAs(kept)
        .hasSize(WorkBuffers.MAX_KEPT + 1);
    assertThat(buffers.input(100)).isSameAs(kept);
  }

  private static void assertWiped() {
    WorkBuffers buffers = WorkBuffers.forThread();
    assertThat(buffers.input(0)).as("input").containsOnly(0);
    assertThat(buffers.plaintext(0)).as("plaintext").containsOnly(0);
    String payload = new String(buffers.payload(0), StandardCharsets.ISO_8859_1);
    assertThat(payload).doesNotContain(SECRET.toStringUtf8().substring(0, 10));
  }
}
