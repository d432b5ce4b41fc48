package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.api.v1.Mode;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.errors.InvalidArgumentException;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The API's modes against the domain's types, both ways. */
class ModeProtosTest {
  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void everyCipherMode_hasTheValueNamedAfterItsHeaderName_andRoundTrips(CipherMode mode) {
    Mode proto = ModeProtos.toProto(mode);

    assertThat(proto.name()).isEqualTo("MODE_" + mode.headerName().toUpperCase(Locale.ROOT));
    assertThat(ModeProtos.fromProto(proto)).isSameAs(mode);
    assertThat(ModeProtos.toProto((KeyType) mode)).isEqualTo(proto);
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"MODE_UNSPECIFIED", "UNRECOGNIZED"},
      mode = EnumSource.Mode.EXCLUDE)
  void everyApiValue_isADomainType(Mode proto) {
    assertThat(ModeProtos.toProto(ModeProtos.fromProto(proto))).isEqualTo(proto);
  }

  @Test
  void hmac_isTheIndexType_legacyHasNoMode_andUnspecifiedIsTheDefault() {
    assertThat(ModeProtos.fromProto(Mode.MODE_HMAC)).isSameAs(KeyType.INDEX);
    assertThat(ModeProtos.toProto(KeyType.LEGACY)).isEqualTo(Mode.MODE_UNSPECIFIED);
    assertThat(ModeProtos.fromProto(Mode.MODE_UNSPECIFIED)).isNull();
    assertThatThrownBy(() -> ModeProtos.fromProto(Mode.UNRECOGNIZED))
        .isInstanceOf(InvalidArgumentException.class);
  }
}
