package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Vault Transit's own ciphertexts ({@code proto/testdata/transit_vectors.json}, made by a real
 * Transit with the keys that made them) through the real server: the keys imported version by
 * version, every {@code vault:vN:} ciphertext decrypted and rewrapped with the expected key naming
 * its key, by the unary, batch and stream calls.
 */
class TransitVectorsTest {
  private static final Base64.Decoder BASE64 = Base64.getDecoder();

  /** One vector, with the fresh key its Transit key was imported into. */
  private record TransitCase(
      String key, int version, int current, String ciphertext, byte[] plaintext, byte[] context) {}

  private static CipherdClient client;
  private static final List<TransitCase> cases = new ArrayList<>();

  @BeforeAll
  static void importTheTransitKeys() throws Exception {
    client = SharedServer.client();
    String family = Testdata.keyName();
    for (JsonElement element : Testdata.json("transit_vectors.json").getAsJsonArray("keys")) {
      JsonObject vector = element.getAsJsonObject();
      String name = family + "-" + vector.get("name").getAsString();
      Mode mode = vector.get("type").getAsString().startsWith("chacha") ? Mode.CHACHA : Mode.GCM;
      JsonObject versions = vector.getAsJsonObject("versions");
      // In order, so that cipherd's version numbers are Transit's.
      TransitKdf kdf =
          vector.has("kdf") ? TransitKdf.ofTransitName(vector.get("kdf").getAsString()) : null;
      for (int v = 1; v <= versions.size(); v++) {
        byte[] material = BASE64.decode(versions.get(String.valueOf(v)).getAsString());
        Key imported =
            kdf == null
                ? client.keys().importKey(name, mode, material, /* allowUnauthenticated= */ false)
                : client.keys().importTransitDerived(name, mode, material, kdf);
        assertEquals(v, imported.currentVersion(), name + " keeps Transit's version numbers");
      }
      // A derived key's versions only decrypt: rotated for one that encrypts, as cipherctl does.
      int current = kdf == null ? versions.size() : client.keys().rotate(name).currentVersion();
      for (JsonElement c : vector.getAsJsonArray("cases")) {
        JsonObject k = c.getAsJsonObject();
        String ciphertext = k.get("ciphertext").getAsString();
        cases.add(
            new TransitCase(
                name,
                Integer.parseInt(ciphertext.split(":")[1].substring(1)),
                current,
                ciphertext,
                BASE64.decode(k.get("plaintext").getAsString()),
                // A derived key's context, else Transit's associated_data.
                BASE64.decode(
                    k.get("context").getAsString().isEmpty()
                        ? k.get("associated_data").getAsString()
                        : k.get("context").getAsString())));
      }
    }
    assertTrue(cases.size() >= 100, cases.size() + " vectors");
  }

  @AfterAll
  static void close() {
    if (client != null) {
      client.close();
    }
  }

  /** A cipherd ciphertext under the key's current version, from the case's, that decrypts. */
  private static void checkRewrap(TransitCase c, Rewrapped rewrapped) {
    assertTrue(
        rewrapped.ciphertext().startsWith("<" + c.key() + "/v" + c.current() + ":"),
        c.ciphertext());
    assertEquals(c.current(), rewrapped.keyVersion(), c.ciphertext());
    assertEquals(c.version(), rewrapped.sourceKeyVersion(), c.ciphertext());
    assertArrayEquals(c.plaintext(), client.decrypt(rewrapped.ciphertext(), c.context()));
  }

  private static <T> List<ItemResult<T>> drain(ItemStream<T> stream) {
    List<ItemResult<T>> results = new ArrayList<>();
    try (stream) {
      stream.forEachRemaining(results::add);
    }
    return results;
  }

  @Test
  void decryptAndReEncrypt_takeEachWithItsExpectedKey() {
    for (TransitCase c : cases) {
      assertArrayEquals(
          c.plaintext(), client.decrypt(c.ciphertext(), c.context(), c.key()), c.ciphertext());
      checkRewrap(c, client.reEncrypt(c.ciphertext(), c.context(), "", c.key()));
    }
  }

  @Test
  void batches_takeEachWithTheItemsExpectedKey() {
    List<CiphertextItem> items = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      TransitCase c = cases.get(i);
      items.add(
          new CiphertextItem(String.valueOf(i), c.ciphertext(), c.context(), "", c.key(), null));
    }

    List<ItemResult<byte[]>> decrypted = client.decryptBatch(items, "");
    List<ItemResult<Rewrapped>> rewrapped = client.reEncryptBatch(items, "", "");

    assertEquals(cases.size(), decrypted.size());
    assertEquals(cases.size(), rewrapped.size());
    for (int i = 0; i < cases.size(); i++) {
      TransitCase c = cases.get(i);
      assertEquals(String.valueOf(i), decrypted.get(i).reference());
      assertNull(decrypted.get(i).error(), c.ciphertext());
      assertArrayEquals(c.plaintext(), decrypted.get(i).get(), c.ciphertext());
      assertEquals(c.version(), decrypted.get(i).keyVersion(), c.ciphertext());
      assertEquals(String.valueOf(i), rewrapped.get(i).reference());
      assertNull(rewrapped.get(i).error(), c.ciphertext());
      checkRewrap(c, rewrapped.get(i).get());
    }
  }

  @Test
  void streams_takeEachWithTheCallsExpectedKey() {
    LinkedHashSet<String> keys = new LinkedHashSet<>();
    cases.forEach(c -> keys.add(c.key()));
    for (String key : keys) {
      List<TransitCase> mine = cases.stream().filter(c -> c.key().equals(key)).toList();
      List<CiphertextItem> items = new ArrayList<>();
      for (int i = 0; i < mine.size(); i++) {
        items.add(
            CiphertextItem.of(String.valueOf(i), mine.get(i).ciphertext(), mine.get(i).context()));
      }

      List<ItemResult<byte[]>> decrypted = drain(client.decryptStream(items.iterator(), key, null));
      List<ItemResult<Rewrapped>> rewrapped =
          drain(client.reEncryptStream(items.iterator(), "", key, null));

      assertEquals(mine.size(), decrypted.size());
      assertEquals(mine.size(), rewrapped.size());
      for (int i = 0; i < mine.size(); i++) {
        TransitCase c = mine.get(i);
        assertNull(decrypted.get(i).error(), c.ciphertext());
        assertArrayEquals(c.plaintext(), decrypted.get(i).get(), c.ciphertext());
        assertNull(rewrapped.get(i).error(), c.ciphertext());
        checkRewrap(c, rewrapped.get(i).get());
      }
    }
  }
}
