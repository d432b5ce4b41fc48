package io.cipherd.server.crypto.keywrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The unwrap of a whole CKM_RSA_AES_KEY_WRAP blob: round trips with the JDK's wrap, and every
 * damaged blob refused with the one message.
 */
class RsaAesKeyWrapTest {
  private static RSAPublicKey publicKey;
  private static RSAPrivateKey privateKey;
  private static RSAPrivateKey otherPrivateKey;

  @BeforeAll
  static void keys() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(3072);
    KeyPair pair = generator.generateKeyPair();
    publicKey = (RSAPublicKey) pair.getPublic();
    privateKey = (RSAPrivateKey) pair.getPrivate();
    otherPrivateKey = (RSAPrivateKey) generator.generateKeyPair().getPrivate();
  }

  @Test
  void unwrap_ofEveryImportedLength_givesTheMaterialBack() throws Exception {
    for (int length : new int[] {5, 16, 24, 32, 64}) {
      byte[] material = new byte[length];
      Arrays.fill(material, (byte) length);
      byte[] blob = JdkKeyWrap.wrap(publicKey, material);

      assertThat(blob).hasSize(384 + ((length + 7) / 8) * 8 + 8);
      assertThat(RsaAesKeyWrap.unwrap(privateKey, blob)).isEqualTo(material);
    }
  }

  @Test
  void damagedBlobs_allFailWithTheOneMessage() throws Exception {
    byte[] blob = JdkKeyWrap.wrap(publicKey, new byte[32]);
    byte[] rsaFlipped = blob.clone();
    rsaFlipped[10] ^= 1;
    byte[] kwpFlipped = blob.clone();
    kwpFlipped[blob.length - 3] ^= 1;
    byte[] shortEphemeral = JdkKeyWrap.wrap(publicKey, new byte[16], new byte[32]);

    for (byte[] damaged :
        new byte[][] {
          rsaFlipped,
          kwpFlipped,
          Arrays.copyOf(blob, blob.length - 8),
          Arrays.copyOf(blob, 384),
          Arrays.copyOf(blob, blob.length + 1),
          new byte[0],
          shortEphemeral
        }) {
      assertThatThrownBy(() -> RsaAesKeyWrap.unwrap(privateKey, damaged))
          .isInstanceOf(UnwrapFailedException.class)
          .hasMessage("the wrapped key material did not unwrap");
    }
    assertThatThrownBy(() -> RsaAesKeyWrap.unwrap(otherPrivateKey, blob))
        .isInstanceOf(UnwrapFailedException.class)
        .hasMessage(UnwrapFailedException.MESSAGE);
  }
}
