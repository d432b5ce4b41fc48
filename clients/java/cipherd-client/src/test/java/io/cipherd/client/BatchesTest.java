package io.cipherd.client;

import static io.cipherd.client.Testdata.keyName;
import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Batches: one result per item, in order, failures item by item. */
class BatchesTest {
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
  void everyItemHasItsResultAndAFailedItemItsTypedError() throws Exception {
    List<EncryptItem> items = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      items.add(EncryptItem.of("row-" + i, utf8("value " + i), utf8("ctx-" + i)));
    }
    List<ItemResult<String>> encrypted = client.encryptBatch("demo", items);
    assertEquals(50, encrypted.size());
    List<CiphertextItem> toDecrypt = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      assertEquals("row-" + i, encrypted.get(i).reference());
      // item 7 gets the wrong context: it alone fails
      toDecrypt.add(
          CiphertextItem.of("row-" + i, encrypted.get(i).get(), utf8(i == 7 ? "bad" : "ctx-" + i)));
    }
    List<ItemResult<byte[]>> decrypted = client.decryptBatchAsync(toDecrypt, "demo").get();
    assertEquals(50, decrypted.size());
    for (int i = 0; i < 50; i++) {
      ItemResult<byte[]> result = decrypted.get(i);
      assertEquals("row-" + i, result.reference());
      if (i == 7) {
        assertFalse(result.ok());
        assertInstanceOf(DecryptionFailedException.class, result.error());
        assertThrows(DecryptionFailedException.class, result::get);
      } else {
        assertArrayEquals(utf8("value " + i), result.get());
      }
    }
  }

  @Test
  void reEncryptAndIndexBatches() {
    String key = keyName();
    client.keys().create(key, Mode.XGCM);
    List<ItemResult<String>> encrypted =
        client.encryptBatch(
            key, List.of(EncryptItem.of("a", utf8("1")), EncryptItem.of("b", utf8("2"))));
    client.keys().rotate(key);
    List<ItemResult<Rewrapped>> rewrapped =
        client.reEncryptBatch(
            List.of(
                CiphertextItem.of("a", encrypted.get(0).get()),
                CiphertextItem.of("b", "not a ciphertext")),
            "",
            key);
    assertEquals(2, rewrapped.get(0).get().keyVersion());
    assertInstanceOf(InvalidArgumentException.class, rewrapped.get(1).error());
    String index = keyName();
    client.keys().create(index, Mode.HMAC);
    List<ItemResult<byte[]>> indexes =
        client.computeIndexBatch(
            index, List.of(IndexItem.of("x", "Bob"), IndexItem.of("y", "bob")), Normalization.TEXT);
    assertArrayEquals(indexes.get(0).get(), indexes.get(1).get());
    List<ItemResult<ReIndexed>> reIndexed =
        client.reIndexBatch(
            index,
            List.of(CiphertextItem.of("a", rewrapped.get(0).get().ciphertext())),
            Normalization.NONE);
    assertTrue(reIndexed.get(0).ok());
    assertArrayEquals(
        client.computeIndex(index, utf8("1"), Normalization.NONE).index(),
        reIndexed.get(0).get().index());
  }
}
