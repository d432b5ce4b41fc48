package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * IVs come from a per-thread buffer of DRBG output: each byte is handed out once, across refills.
 */
class NonceSourceTest {
  @Test
  void ivsAcrossManyRefills_areAllDistinct_andLandAtTheOffsetAsked() {
    Set<String> seen = new HashSet<>();
    // 12 and 16 mixed, so draws straddle the end of the buffer at different points.
    for (int i = 0; i < 20 * NonceSource.BLOCK; i++) {
      int length = i % 3 == 0 ? 16 : 12;
      byte[] out = new byte[length + 4];
      NonceSource.fill(out, 2, length);
      assertThat(out[0]).isZero();
      assertThat(out[1]).isZero();
      assertThat(out[length + 2]).isZero();
      assertThat(out[length + 3]).isZero();
      assertThat(seen.add(HexFormat.of().formatHex(out, 2, 2 + length)))
          .as("IV %d repeats", i)
          .isTrue();
    }
  }

  @Test
  void requestsLargerThanTheBuffer_areFilledWhole() {
    byte[] out = new byte[NonceSource.BLOCK * 2 + 1];
    NonceSource.fill(out, 1, NonceSource.BLOCK * 2);
    assertThat(out[0]).isZero();
    int zeros = 0;
    for (int i = 1; i < out.length; i++) {
      zeros += out[i] == 0 ? 1 : 0;
    }
    assertThat(zeros).as("about 4 of 1024 random bytes are zero").isLessThan(30);
  }
}
