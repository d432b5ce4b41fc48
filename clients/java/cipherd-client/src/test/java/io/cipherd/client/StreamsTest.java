package io.cipherd.client;

import static io.cipherd.client.Testdata.keyName;
import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Item streams: order, per-item errors, resumeAfter, and a stream broken by a killed server. */
class StreamsTest {
  private static Iterator<EncryptItem> items(int count) {
    return IntStream.range(0, count)
        .mapToObj(i -> EncryptItem.of("r" + i, utf8("plaintext " + i)))
        .iterator();
  }

  private static <T> List<ItemResult<T>> drain(ItemStream<T> stream) {
    List<ItemResult<T>> results = new ArrayList<>();
    try (stream) {
      stream.forEachRemaining(results::add);
    }
    return results;
  }

  @Test
  void encryptThenDecryptAndReEncryptStreamsKeepEveryItemInOrder() throws Exception {
    try (CipherdClient client = SharedServer.client()) {
      List<ItemResult<String>> encrypted = drain(client.encryptStream("demo", items(2000), null));
      assertEquals(2000, encrypted.size());
      List<CiphertextItem> ciphertexts = new ArrayList<>();
      for (int i = 0; i < encrypted.size(); i++) {
        assertEquals("r" + i, encrypted.get(i).reference());
        String ciphertext = i == 5 ? "<demo/v1:gcm>AAAA" : encrypted.get(i).get();
        ciphertexts.add(CiphertextItem.of("r" + i, ciphertext));
      }
      List<ItemResult<byte[]>> decrypted =
          drain(client.decryptStream(ciphertexts.iterator(), "demo", null));
      assertEquals(2000, decrypted.size());
      assertInstanceOf(InvalidArgumentException.class, decrypted.get(5).error());
      assertArrayEquals(utf8("plaintext 1999"), decrypted.get(1999).get());
      List<ItemResult<Rewrapped>> rewrapped =
          drain(client.reEncryptStream(ciphertexts.subList(0, 3).iterator(), "", "", null));
      assertEquals(3, rewrapped.size());
      assertArrayEquals(utf8("plaintext 2"), client.decrypt(rewrapped.get(2).get().ciphertext()));
    }
  }

  @Test
  void resumeAfterSkipsUpToTheReferenceAndAnUnknownOneFails() throws Exception {
    try (CipherdClient client = SharedServer.client()) {
      List<ItemResult<String>> rest = drain(client.encryptStream("demo", items(10), "r6"));
      assertEquals(List.of("r7", "r8", "r9"), rest.stream().map(ItemResult::reference).toList());
      ItemStream<String> unknown = client.encryptStream("demo", items(3), "nope");
      assertThrows(IllegalArgumentException.class, () -> drain(unknown));
    }
  }

  @Test
  void closingAStreamOfEndlessItemsCancelsIt() throws Exception {
    try (CipherdClient client = SharedServer.client()) {
      Iterator<EncryptItem> endless =
          java.util.stream.Stream.iterate(0, i -> i + 1)
              .map(i -> EncryptItem.of("e" + i, utf8("endless")))
              .iterator();
      List<String> read = new ArrayList<>();
      ItemStream<String> stream = client.encryptStream("demo", endless, null);
      try (stream) {
        while (read.size() < 100) {
          read.add(stream.next().reference());
        }
      }
      assertEquals("e99", read.get(99));
      assertEquals(false, stream.hasNext());
      assertArrayEquals(utf8("after"), client.decrypt(client.encrypt("demo", utf8("after"))));
    }
  }

  @Test
  void aStreamBrokenByAKilledServerResumesAfterTheLastReferenceRead(@TempDir Path workdir)
      throws Exception {
    String key = keyName();
    int total = 20_000;
    List<String> seen = new ArrayList<>();
    CipherdException broken;
    TestServer first = TestServer.start(workdir);
    try (CipherdClient client =
        CipherdClient.builder(first.target()).retryPolicy(RetryPolicy.NONE).build()) {
      client.keys().create(key, Mode.GCM);
      ItemStream<String> stream = client.encryptStream(key, items(total), null);
      broken =
          assertThrows(
              CipherdException.class,
              () -> {
                while (stream.hasNext()) {
                  seen.add(stream.next().reference());
                  if (seen.size() == 500) {
                    first.kill();
                  }
                }
              });
    } finally {
      first.close();
    }
    assertTrue(seen.size() >= 500 && seen.size() < total, "read " + seen.size());
    assertEquals(seen.get(seen.size() - 1), broken.lastReference().orElseThrow());
    try (TestServer second = TestServer.start(workdir);
        CipherdClient client = CipherdClient.builder(second.target()).build()) {
      drain(client.encryptStream(key, items(total), broken.lastReference().orElseThrow()))
          .forEach(result -> seen.add(result.reference()));
    }
    assertEquals(IntStream.range(0, total).mapToObj(i -> "r" + i).toList(), seen);
  }
}
