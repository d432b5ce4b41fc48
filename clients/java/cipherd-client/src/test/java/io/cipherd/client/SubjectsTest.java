package io.cipherd.client;

import static io.cipherd.client.Testdata.keyName;
import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Data subjects against the real jar over a real socket. */
class SubjectsTest {
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

  private static String subjectKey() {
    String key = keyName();
    client.keys().create(key, Mode.GCM);
    return key;
  }

  @Test
  void erasingOneSubjectLeavesTheOthers() {
    String key = subjectKey();
    byte[] context = utf8("users.email");
    String alice = client.encrypt(key, utf8("alice@example.com"), context, Subject.of("user-1"));
    String bob = client.encrypt(key, utf8("bob@example.com"), context, Subject.of("user-2"));
    assertTrue(Envelope.parse(alice).subjectBound());
    assertFalse(alice.contains("user-1"));
    assertTrue(client.inspect(alice).subjectBound());

    SubjectErasure erasure = client.subjects().erase(key, "user-1");
    assertEquals(ErasureOutcome.ERASED, erasure.outcome());
    SubjectErasedException e =
        assertThrows(SubjectErasedException.class, () -> client.decrypt(alice, context));
    assertEquals(erasure.eraseTime(), e.eraseTime());
    assertFalse(e.getMessage().contains("user-1"));
    assertArrayEquals(utf8("bob@example.com"), client.decrypt(bob, context));
    assertThrows(
        SubjectErasedException.class,
        () -> client.encrypt(key, utf8("x"), new byte[0], Subject.of("user-1")));
    String renewed =
        client.encrypt(key, utf8("new"), new byte[0], Subject.of("user-1").renewingErased());
    assertArrayEquals(utf8("new"), client.decrypt(renewed));
    assertEquals(SubjectState.ACTIVE, client.subjects().get(key, "user-1").state());

    List<ItemResult<SubjectErasure>> results =
        client
            .subjects()
            .eraseAll(
                key, List.of(new SubjectItem("2", "user-2"), new SubjectItem("n", "user-never")));
    assertEquals(ErasureOutcome.ERASED, results.get(0).get().outcome());
    assertEquals(ErasureOutcome.NO_KEY, results.get(1).get().outcome());
    ItemResult<byte[]> decrypted =
        client.decryptBatch(List.of(CiphertextItem.of("b", bob, context)), "").get(0);
    assertInstanceOf(SubjectErasedException.class, decrypted.error());
  }
}
