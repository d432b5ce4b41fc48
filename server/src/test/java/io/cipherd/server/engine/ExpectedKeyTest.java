package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.errors.InvalidArgumentException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A request's expected_key: what it accepts, what it refuses, and how it says so. */
class ExpectedKeyTest {
  @ParameterizedTest(name = "{0} vs {1}: {2}")
  @CsvSource({
    "users-email, users-email, true",
    "users-email, users-email2, false",
    "users-email, users, false",
    "users-email, attacker-key, false",
    "users-*, users-email, true",
    "users-*, users-, true",
    "users-*, users, false",
    "users-*, usersx-email, false",
    "users-email*, users-email, true",
    "u*, u, true",
    "u*, a, false",
  })
  void matches_aNameExactly_orAPrefixWithStar(String expected, String keyName, boolean matches) {
    ExpectedKey parsed = ExpectedKey.parse(expected, "expected_key");

    assertThat(parsed.matches(keyName)).isEqualTo(matches);
    assertThat(ExpectedKey.refusesAtOnce(expected, keyName)).isEqualTo(!matches);
    assertThat(parsed.toString()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"users-email", "attacker-key", "a"})
  void empty_acceptsAnyKey(String keyName) {
    ExpectedKey any = ExpectedKey.parse("", "expected_key");

    assertThat(any).isSameAs(ExpectedKey.ANY);
    assertThat(any.isAny()).isTrue();
    any.check(keyName);
    assertThat(ExpectedKey.refusesAtOnce("", keyName)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "*",
        "**",
        "Users-email",
        "users/email",
        "-users",
        "users-*-email",
        "*users",
        "users email",
        "users-email\n",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
      })
  void anInvalidValue_isInvalidArgument_namingTheField_notEchoingIt(String value) {
    assertThatThrownBy(() -> ExpectedKey.parse(value, "items.expected_key"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("items.expected_key must be a key name")
        .hasMessageContaining("(got " + value.length() + " characters)")
        .message()
        .satisfies(m -> assertThat(value.length() < 3 || !m.contains(value)).isTrue());
    // Fails at once, whatever the header: a call with it needs no key store.
    assertThat(ExpectedKey.refusesAtOnce(value, "users-email")).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "users-email"})
  void anItemsOwnValue_winsOverTheBatchs(String own) {
    ExpectedKey batch = ExpectedKey.parse("orders-*", "expected_key");

    ExpectedKey item = ExpectedKey.parse(own, batch, "expected_key");

    assertThat(item.toString()).isEqualTo(own.isEmpty() ? "orders-*" : own);
  }

  @Test
  void check_refusesAnotherKey_namingBoth_withReasonAndMetadata() {
    ExpectedKey expected = ExpectedKey.parse("users-email", "expected_key");

    UnexpectedKeyException e =
        (UnexpectedKeyException) catchThrowable(() -> expected.check("attacker-key"));

    assertThat(e.kind()).isEqualTo(ErrorKind.UNEXPECTED_KEY);
    assertThat(e.getMessage())
        .isEqualTo(
            "ciphertext is under key 'attacker-key', not expected_key 'users-email':"
                + " refused without decrypting it");
    assertThat(e.details()).isEqualTo(Map.of("key", "attacker-key", "expected_key", "users-email"));
    assertThat(e.getStackTrace()).as("a routine refusal fills no stack trace").isEmpty();
  }

  @Test
  void check_ofALegacyItemsInvalidKeyName_doesNotRepeatIt() {
    ExpectedKey expected = ExpectedKey.parse("mysql-*", "expected_key");
    String invalid = "NOT A NAME " + "x".repeat(1000);

    assertThatThrownBy(() -> expected.check(invalid))
        .isInstanceOf(UnexpectedKeyException.class)
        .hasMessageContaining("under another key")
        .message()
        .doesNotContain("NOT A NAME");
  }
}
