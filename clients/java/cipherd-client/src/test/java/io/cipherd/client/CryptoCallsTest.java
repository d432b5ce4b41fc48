package io.cipherd.client;

import static io.cipherd.client.Testdata.keyName;
import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cipherd.api.v1.ErrorReason;
import io.grpc.Status;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Unary calls against the real jar over a real socket. */
class CryptoCallsTest {
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
  void roundTripWithContextAndExpectedKey() {
    String ciphertext = client.encrypt("demo", utf8("4111 1111 1111 1111"), utf8("user-42"));
    Envelope envelope = Envelope.parse(ciphertext);
    assertEquals("demo", envelope.keyName());
    assertArrayEquals(
        utf8("4111 1111 1111 1111"), client.decrypt(ciphertext, utf8("user-42"), "demo"));
    assertArrayEquals(
        utf8("4111 1111 1111 1111"), client.decrypt(ciphertext, utf8("user-42"), "de*"));
  }

  @Test
  void wrongContextIsADecryptionFailureThatSaysNothingOfThePlaintext() {
    String ciphertext = client.encrypt("demo", utf8("secret-value"), utf8("a"));
    DecryptionFailedException e =
        assertThrows(
            DecryptionFailedException.class, () -> client.decrypt(ciphertext, utf8("b"), ""));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    assertEquals(ErrorReason.DECRYPTION_FAILED, e.reason());
    assertTrue(e.getMessage().contains("check that the context"), e.getMessage());
    assertFalse(e.getMessage().contains("secret-value"));
    assertFalse(e.getMessage().contains(ciphertext.substring(ciphertext.indexOf('>') + 1)));
  }

  @Test
  void tamperedCiphertextFailsAndUnexpectedKeyIsRefused() {
    String ciphertext = client.encrypt("demo", utf8("x"));
    Envelope envelope = Envelope.parse(ciphertext);
    byte[] payload = envelope.payload().clone();
    payload[payload.length - 1] ^= 1;
    String tampered =
        new Envelope(envelope.keyName(), envelope.keyVersion(), envelope.mode(), payload).format();
    assertThrows(DecryptionFailedException.class, () -> client.decrypt(tampered));
    UnexpectedKeyException unexpected =
        assertThrows(
            UnexpectedKeyException.class, () -> client.decrypt(ciphertext, new byte[0], "other"));
    assertEquals("demo", unexpected.metadata().get("key"));
    assertInstanceOf(InvalidArgumentException.class, unexpected);
  }

  @Test
  void missingKeyIsNotFoundByReason() {
    NotFoundException e =
        assertThrows(NotFoundException.class, () -> client.encrypt(keyName(), utf8("x")));
    assertEquals(ErrorReason.KEY_NOT_FOUND, e.reason());
    assertEquals("KEY_NOT_FOUND", e.reasonName());
  }

  @Test
  void malformedCiphertextIsInvalidCiphertext() {
    InvalidCiphertextException e =
        assertThrows(
            InvalidCiphertextException.class,
            () ->
                client.decrypt("<demo/v1:gcm>" + Base64.getEncoder().encodeToString(new byte[3])));
    assertEquals(ErrorReason.INVALID_CIPHERTEXT, e.reason());
  }

  @Test
  void asyncCallsCompleteAndFailWithTheSameTypes() throws Exception {
    String ciphertext = client.encryptAsync("demo", utf8("async"), utf8("c")).get();
    assertArrayEquals(utf8("async"), client.decryptAsync(ciphertext, utf8("c"), "").get());
    ExecutionException e =
        assertThrows(
            ExecutionException.class, () -> client.decryptAsync(ciphertext, utf8("d"), "").get());
    assertInstanceOf(DecryptionFailedException.class, e.getCause());
    ExecutionException missing =
        assertThrows(
            ExecutionException.class,
            () -> client.encryptAsync(keyName(), utf8("x"), utf8("")).get());
    assertInstanceOf(NotFoundException.class, missing.getCause());
  }

  @Test
  void reEncryptMovesToTheCurrentVersionAndInspectSaysSo() {
    String key = keyName();
    client.keys().create(key, Mode.GCM);
    String v1 = client.encrypt(key, utf8("rotate me"), utf8("ctx"));
    client.keys().rotate(key);
    Inspection before = client.inspect(v1);
    assertEquals(1, before.keyVersion());
    assertEquals(2, before.currentVersion());
    assertTrue(before.behindCurrent());
    assertEquals(Mode.GCM, before.mode());
    Rewrapped rewrapped = client.reEncrypt(v1, utf8("ctx"), "", key);
    assertEquals(2, rewrapped.keyVersion());
    assertEquals(1, rewrapped.sourceKeyVersion());
    assertArrayEquals(utf8("rotate me"), client.decrypt(rewrapped.ciphertext(), utf8("ctx")));
  }

  @Test
  void blindIndexesAreStableAndNormalized() {
    String key = keyName();
    client.keys().create(key, Mode.HMAC);
    BlindIndex a = client.computeIndex(key, utf8("  Alice@Example.COM "), Normalization.TEXT);
    BlindIndex b = client.computeIndex(key, utf8("alice@example.com"), Normalization.TEXT);
    BlindIndex raw = client.computeIndex(key, utf8("  Alice@Example.COM "), Normalization.NONE);
    assertArrayEquals(a.index(), b.index());
    assertFalse(java.util.Arrays.equals(a.index(), raw.index()));
    client.keys().rotate(key);
    BlindIndex all = client.computeIndex(key, utf8("alice@example.com"), Normalization.TEXT, true);
    assertEquals(2, all.keyVersion());
    assertArrayEquals(a.index(), all.versions().get(1));
    String ciphertext = client.encrypt("demo", utf8("alice@example.com"));
    ReIndexed reIndexed = client.reIndex(key, ciphertext, new byte[0], Normalization.TEXT);
    assertArrayEquals(all.index(), reIndexed.index());
  }

  @Test
  void dataKeysUnwrapWithDecrypt() {
    DataKey key = client.generateDataKey("demo", 256, utf8("file-7"), false);
    assertEquals(32, key.plaintextKey().orElseThrow().length);
    assertArrayEquals(
        key.plaintextKey().orElseThrow(), client.decrypt(key.wrappedKey(), utf8("file-7")));
    DataKey wrappedOnly = client.generateDataKey("demo", 128, new byte[0], true);
    assertTrue(wrappedOnly.plaintextKey().isEmpty());
    assertEquals(16, client.decrypt(wrappedOnly.wrappedKey()).length);
  }

  @Test
  void everyAsyncVariantAnswersAsItsBlockingCall() throws Exception {
    String ciphertext = client.encrypt("demo", utf8("async all"));
    assertEquals(client.inspect(ciphertext), client.inspectAsync(ciphertext).get());
    Rewrapped rewrapped =
        client
            .reEncryptBatchAsync(List.of(CiphertextItem.of("a", ciphertext)), "", "demo")
            .get()
            .get(0)
            .get();
    assertArrayEquals(utf8("async all"), client.decrypt(rewrapped.ciphertext()));
    String index = keyName();
    client.keys().create(index, Mode.HMAC);
    assertArrayEquals(
        client.computeIndex(index, utf8("v"), Normalization.NONE).index(),
        client.computeIndexAsync(index, utf8("v"), Normalization.NONE, false).get().index());
    DataKey key = client.generateDataKeyAsync("demo", 0, new byte[0], false).get();
    assertArrayEquals(key.plaintextKey().orElseThrow(), client.decrypt(key.wrappedKey()));
    ExecutionException missing =
        assertThrows(
            ExecutionException.class,
            () -> client.generateDataKeyAsync(keyName(), 0, new byte[0], true).get());
    assertInstanceOf(NotFoundException.class, missing.getCause());
  }
}
