package io.cipherd.client;

import static io.cipherd.client.Testdata.keyName;
import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Format-preserving values against the real server (it needs issue 34's service in the jar). */
class FormattedValuesTest {
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

  private static String ff1Key(FpeFormat format) {
    String key = keyName();
    client.keys().createFormatPreserving(key, format, 0, KeyPolicy.DEFAULT);
    return key;
  }

  private static boolean luhnValid(String number) {
    int sum = 0;
    boolean twice = false;
    for (int i = number.length() - 1; i >= 0; i--) {
      char c = number.charAt(i);
      if (c < '0' || c > '9') {
        continue;
      }
      int d = c - '0';
      if (twice) {
        d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      }
      sum += d;
      twice = !twice;
    }
    return sum % 10 == 0;
  }

  private static <T> List<T> values(ItemStream<T> stream) {
    List<T> values = new ArrayList<>();
    try (stream) {
      stream.forEachRemaining(r -> values.add(r.get()));
    }
    return values;
  }

  @Test
  void formattedStreams_keepOrderFailAnItemAloneAndResumeAfterTheLastReference() {
    String key = ff1Key(FpeFormat.of(FpeTemplate.DIGITS));
    byte[] column = utf8("users.national_id");
    FormattedValues f = client.formatted();
    List<FormattedPlainItem> plain =
        IntStream.range(0, 600)
            .mapToObj(
                i ->
                    new FormattedPlainItem(
                        String.valueOf(i), i == 250 ? "12345X7890" : "%010d".formatted(i * 7919)))
            .toList();
    List<ItemResult<FormattedValue>> encrypted = new ArrayList<>();
    try (ItemStream<FormattedValue> stream = f.encryptStream(key, plain.iterator(), column, null)) {
      stream.forEachRemaining(encrypted::add);
    }
    assertEquals(
        plain.stream().map(FormattedPlainItem::reference).toList(),
        encrypted.stream().map(ItemResult::reference).toList());
    assertInstanceOf(InvalidArgumentException.class, encrypted.get(250).error());
    List<FormattedItem> stored =
        encrypted.stream()
            .filter(ItemResult::ok)
            .map(r -> new FormattedItem(r.reference(), r.get()))
            .toList();
    assertEquals(
        plain.stream()
            .filter(p -> !p.reference().equals("250"))
            .map(FormattedPlainItem::value)
            .toList(),
        values(f.decryptStream(key, stored.iterator(), column, null)));
    client.keys().rotate(key);
    List<FormattedRewrapped> moved = new ArrayList<>();
    String last;
    try (ItemStream<FormattedRewrapped> stream =
        f.reEncryptStream(key, stored.iterator(), column, null)) {
      while (moved.size() < 300) {
        moved.add(stream.next().get());
      }
      last = stream.lastReference().orElseThrow();
    } // closed after 300 items: the call is cancelled, and resumed after its last reference
    moved.addAll(values(f.reEncryptStream(key, stored.iterator(), column, last)));
    assertEquals(599, moved.size());
    assertTrue(
        moved.stream().allMatch(m -> m.formatted().keyVersion() == 2 && m.sourceKeyVersion() == 1));
    assertEquals(plain.get(599).value(), f.decrypt(key, moved.get(598).formatted(), column));
  }

  @Test
  void digits_roundTripAndRewrapAcrossARotation() {
    String key = ff1Key(FpeFormat.of(FpeTemplate.DIGITS));
    byte[] column = utf8("users.national_id");
    FormattedValues f = client.formatted();
    FormattedValue v1 = f.encrypt(key, "0123456789", column);
    assertEquals(1, v1.keyVersion());
    assertTrue(v1.value().matches("\\d{10}"), "ten digits");
    assertNotEquals("0123456789", v1.value());
    assertEquals("0123456789", f.decrypt(key, v1, column));
    client.keys().rotate(key);
    FormattedRewrapped moved = f.reEncrypt(key, v1, column);
    assertEquals(2, moved.formatted().keyVersion());
    assertEquals(1, moved.sourceKeyVersion());
    assertEquals("0123456789", f.decrypt(key, moved.formatted(), column));
    assertNotEquals(
        "0123456789", f.decrypt(key, new FormattedValue(v1.value(), 2), column), "wrong version");
    assertThrows(
        InvalidArgumentException.class,
        () -> f.decrypt(key, new FormattedValue(v1.value(), 0), column));
    assertEquals(
        FpeFormat.of(FpeTemplate.DIGITS),
        client.keys().get(key).versions().get(1).fpeFormat().orElseThrow());
  }

  @Test
  void cardNumbers_stayLuhnValidAndMaskToTheirLastFour() {
    String refused = ff1Key(FpeFormat.of(FpeTemplate.CARD_NUMBER));
    InvalidArgumentException small =
        assertThrows(
            InvalidArgumentException.class,
            () -> client.formatted().encrypt(refused, "4111 1111 1111 1111", new byte[0]));
    assertFalse(small.getMessage().contains("4111"), small.getMessage());
    String key = ff1Key(FpeFormat.of(FpeTemplate.CARD_NUMBER).acceptingSmallDomain());
    FormattedValue ct = client.formatted().encrypt(key, "4111 1111 1111 1111", new byte[0]);
    assertEquals("4111 11", ct.value().substring(0, 7));
    assertTrue(ct.value().endsWith("1111") && luhnValid(ct.value()), "Luhn-valid, last four kept");
    assertEquals("•••• •••• •••• 1111", client.formatted().mask(key, ct, new byte[0]));
    List<ItemResult<FormattedValue>> batch =
        client
            .formatted()
            .encryptAll(
                key,
                List.of(
                    new FormattedPlainItem("a", "5555 5555 5555 4444"),
                    new FormattedPlainItem("b", "not a card")),
                new byte[0]);
    assertInstanceOf(InvalidArgumentException.class, batch.get(1).error());
    assertEquals(
        "5555 5555 5555 4444",
        client
            .formatted()
            .decryptAll(key, List.of(new FormattedItem("a", batch.get(0).get())), new byte[0])
            .get(0)
            .get());
  }
}
