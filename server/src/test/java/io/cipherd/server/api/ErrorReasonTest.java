package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.api.v1.ErrorReason;
import io.cipherd.server.errors.ErrorKind;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ErrorKind} and the schema's {@link ErrorReason} are one list: every kind has its own
 * reason, every reason is some kind's, and each has the status that proto/README.md's "Errors"
 * table and error_reason.proto's comments give it. A value added to the enum without a kind, or a
 * kind without a value, fails here.
 */
class ErrorReasonTest {
  /** The reasons a server can send: every value but the zero one (and protobuf's UNRECOGNIZED). */
  static Set<ErrorReason> sendable() {
    Set<ErrorReason> reasons = EnumSet.allOf(ErrorReason.class);
    reasons.remove(ErrorReason.ERROR_REASON_UNSPECIFIED);
    reasons.remove(ErrorReason.UNRECOGNIZED);
    return reasons;
  }

  @Test
  void everyKind_hasItsOwnReason() {
    assertThat(Stream.of(ErrorKind.values()).map(ErrorKind::reason).distinct().count())
        .isEqualTo(ErrorKind.values().length);
  }

  @Test
  void everyReason_butTheZeroValue_isSomeKindsReason() {
    assertThat(Stream.of(ErrorKind.values()).map(ErrorKind::reason).collect(Collectors.toSet()))
        .isEqualTo(sendable());
  }

  @ParameterizedTest
  @EnumSource(ErrorKind.class)
  void aKindsReason_isNamedAsTheKind_soTheWireStringsAreWhatTheyWere(ErrorKind kind) {
    assertThat(kind.reason().name()).isEqualTo(kind.name());
    assertThat(kind.reason())
        .isNotIn(ErrorReason.ERROR_REASON_UNSPECIFIED, ErrorReason.UNRECOGNIZED);
  }

  @ParameterizedTest
  @EnumSource(ErrorKind.class)
  void aKindsStatus_isTheOneProtoReadme_andErrorReasonProto_give(ErrorKind kind)
      throws IOException {
    Status.Code code = StatusMapper.codeOf(kind);

    assertThat(readmeTable()).containsEntry(kind.reason().name(), code.name());
    assertThat(protoComments()).containsEntry(kind.reason().name(), code.name());
  }

  @Test
  void protoReadmesTable_andTheProtosComments_listEveryReason_andNothingElse() throws IOException {
    Set<String> names = sendable().stream().map(ErrorReason::name).collect(Collectors.toSet());

    assertThat(readmeTable().keySet()).isEqualTo(names);
    assertThat(protoComments().keySet()).isEqualTo(names);
  }

  /** The reason → status rows of proto/README.md's "Errors" table. */
  private static Map<String, String> readmeTable() throws IOException {
    String readme = Files.readString(protoRoot().resolve("README.md"));
    int start = readme.indexOf("\n## Errors\n");
    assertThat(start).as("proto/README.md has an '## Errors' section").isPositive();
    int end = readme.indexOf("\n## ", start + 1);
    return rows(
        Pattern.compile("(?m)^\\| `([A-Z_]+)` \\| ([A-Z_]+) \\|"),
        readme.substring(start, end < 0 ? readme.length() : end));
  }

  /** The "NAME (status CODE)" of each value's comment in error_reason.proto. */
  private static Map<String, String> protoComments() throws IOException {
    return rows(
        Pattern.compile("(?m)^  // ([A-Z_]+) \\(status ([A-Z_]+)\\)"),
        Files.readString(protoRoot().resolve("cipherd/v1/error_reason.proto")));
  }

  private static Map<String, String> rows(Pattern row, String text) {
    Map<String, String> statusByReason = new HashMap<>();
    Matcher m = row.matcher(text);
    while (m.find()) {
      assertThat(statusByReason.put(m.group(1), m.group(2)))
          .as("%s listed once", m.group(1))
          .isNull();
    }
    return statusByReason;
  }

  /** proto/, the parent of the testdata directory surefire names. */
  static Path protoRoot() {
    String testdata = System.getProperty("cipherd.protoTestdata");
    assertThat(testdata).as("system property cipherd.protoTestdata (set by surefire)").isNotNull();
    return Path.of(testdata).getParent();
  }
}
