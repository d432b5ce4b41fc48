package io.cipherd.server.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class SubjectRefTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void bytes_roundTrip_inTheirOrder() {
    byte[] bytes = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");

    SubjectRef ref = SubjectRef.of(bytes);

    assertThat(ref.bytes()).isEqualTo(bytes);
    assertThat(ref).hasToString("000102030405060708090a0b0c0d0e0f");
  }

  @Test
  void read_takesTheSixteenBytesAtTheOffset_asOfDoes() {
    byte[] payload = new byte[40];
    RANDOM.nextBytes(payload);
    byte[] middle = new byte[SubjectRef.LENGTH];
    System.arraycopy(payload, 7, middle, 0, middle.length);

    SubjectRef read = SubjectRef.read(payload, 7);

    assertThat(read).isEqualTo(SubjectRef.of(middle)).hasSameHashCodeAs(SubjectRef.of(middle));
    assertThat(read.bytes()).isEqualTo(middle);
  }

  @Test
  void refsDifferingInOneByte_ofEitherHalf_areDifferent() {
    byte[] bytes = new byte[SubjectRef.LENGTH];
    RANDOM.nextBytes(bytes);
    SubjectRef ref = SubjectRef.of(bytes);
    for (int i = 0; i < SubjectRef.LENGTH; i++) {
      byte[] other = bytes.clone();
      other[i] ^= 1;
      assertThat(SubjectRef.of(other)).as("byte %d", i).isNotEqualTo(ref);
    }
  }

  @Test
  void of_refusesAnyOtherLength_andReadRefusesToRunPastTheArray() {
    assertThatThrownBy(() -> SubjectRef.of(new byte[15]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SubjectRef.read(new byte[20], 5))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
