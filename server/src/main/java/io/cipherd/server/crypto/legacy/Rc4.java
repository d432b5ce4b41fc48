package io.cipherd.server.crypto.legacy;

import java.util.Arrays;

/**
 * The RC4 keystream XORed over data, for keys of 5 to 256 bytes: the JDK's ARCFOUR refuses keys
 * over 128 bytes, and RC4 fits in a page. Only ever used to decrypt legacy data; checked against
 * OpenSSL, Python's cryptography and the JDK's ARCFOUR in tests.
 */
final class Rc4 {
  private Rc4() {}

  /**
   * XORs the keystream of {@code key} over {@code in[from, from + length)} into {@code out} from 0.
   */
  static void apply(byte[] key, byte[] in, int from, int length, byte[] out) {
    int[] state = new int[256];
    for (int i = 0; i < 256; i++) {
      state[i] = i;
    }
    for (int i = 0, j = 0; i < 256; i++) {
      j = (j + state[i] + (key[i % key.length] & 0xff)) & 0xff;
      swap(state, i, j);
    }
    for (int n = 0, i = 0, j = 0; n < length; n++) {
      i = (i + 1) & 0xff;
      j = (j + state[i]) & 0xff;
      swap(state, i, j);
      out[n] = (byte) (in[from + n] ^ state[(state[i] + state[j]) & 0xff]);
    }
    // The state is the key, permuted: no less secret.
    Arrays.fill(state, 0);
  }

  private static void swap(int[] state, int i, int j) {
    int t = state[i];
    state[i] = state[j];
    state[j] = t;
  }
}
