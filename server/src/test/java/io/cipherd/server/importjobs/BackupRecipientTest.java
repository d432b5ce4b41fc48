package io.cipherd.server.importjobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.errors.InvalidArgumentException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading BackupKey's recipient: the PEMs tools write are accepted whatever their whitespace, and
 * anything else, however long and however shaped, is refused with a message that says what it got
 * (its length, never its content), the length checked before anything is read.
 */
class BackupRecipientTest {
  private static final String BEGIN = "-----BEGIN PUBLIC KEY-----";
  private static final String END = "-----END PUBLIC KEY-----";

  /** A PEM written by the openssl CLI (openssl pkey -pubout), not by this code base. */
  private static final String OPENSSL_PEM = resource("openssl-rsa3072.pub.pem");

  /** Its SHA-256 as openssl computes it: openssl pkey -pubin -outform DER | sha256sum. */
  private static final String OPENSSL_SHA256 = resource("openssl-rsa3072.pub.sha256").strip();

  @Test
  void anOpensslPem_isRead_asTheKeyOpensslNames() {
    BackupRecipient recipient = BackupRecipient.parse(OPENSSL_PEM);

    assertThat(recipient.fingerprint()).isEqualTo(OPENSSL_SHA256);
    assertThat(recipient.algorithm()).isEqualTo(WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072);
    assertThat(recipient.publicKey().getModulus().bitLength()).isEqualTo(3072);
  }

  @Test
  void aKeyOf4096Bits_wrapsWithThe4096Algorithm() {
    String pem = resource("openssl-rsa4096.pub.pem");
    assertThat(pem.length()).isLessThan(1024);
    assertThat(BackupRecipient.parse(pem).algorithm())
        .isEqualTo(WrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096);
  }

  @Test
  void whitespaceAroundAndInside_crlf_andAnyLineLength_readTheSameKey() {
    String body = body(OPENSSL_PEM);
    String unbroken = body.replaceAll("\\s", "");
    for (String variant :
        new String[] {
          OPENSSL_PEM.replace("\n", "\r\n"),
          "\n\t  " + OPENSSL_PEM + "\n\n  \r\n",
          BEGIN + unbroken + END,
          BEGIN + "\n" + unbroken + "\n" + END,
          BEGIN + "\n\n  " + body + "  \n\n" + END,
          BEGIN + "\n" + String.join("\n", unbroken.split("(?<=\\G.{76})")) + "\n" + END,
          BEGIN + " " + unbroken.replaceAll("(.{4})", "$1 ") + END,
        }) {
      assertThat(BackupRecipient.parse(variant).fingerprint())
          .as(variant)
          .isEqualTo(OPENSSL_SHA256);
    }
  }

  @Test
  void aPemOfExactlyTheLimit_isRead_andOneCharacterMore_isRefusedNamingBothLengths() {
    String atLimit = OPENSSL_PEM + " ".repeat(BackupRecipient.MAX_PEM_CHARS - OPENSSL_PEM.length());
    assertThat(atLimit).hasSize(BackupRecipient.MAX_PEM_CHARS);
    assertThat(BackupRecipient.parse(atLimit).fingerprint()).isEqualTo(OPENSSL_SHA256);

    assertThat(refusal(atLimit + " "))
        .isEqualTo(
            "recipient_public_key_pem may be at most 16384 characters (an RSA 3072 or 4096 public"
                + " key's PEM takes under 1 KiB); got 16385");
  }

  @Test
  void a4MiBRecipient_isRefusedByItsLength_neverEchoed() {
    String huge = BEGIN + "QUJD".repeat(1024 * 1024) + END;

    String message = refusal(huge);

    assertThat(message).contains("at most 16384").contains("got " + huge.length());
    assertThat(message).doesNotContain("QUJD").doesNotContain(BEGIN);
  }

  /** Bodies of whitespace took the regex this replaced time cubic in their length. */
  @ParameterizedTest
  @ValueSource(strings = {" ", "\n", "\r\n", " \t"})
  void aBodyOfWhitespace_atTheLimit_isNotAKey(String space) {
    int room = BackupRecipient.MAX_PEM_CHARS - BEGIN.length() - END.length();
    String blank = space.repeat(room / space.length());

    assertThat(refusal(BEGIN + blank))
        .isEqualTo(
            "recipient_public_key_pem must be a PEM \"PUBLIC KEY\" (X.509 SubjectPublicKeyInfo),"
                + " e.g. openssl pkey -pubout; got "
                + (BEGIN + blank).length()
                + " characters that are not one");
    // With both armour lines the body is empty: armoured, but no key.
    assertThat(refusal(BEGIN + blank + END)).contains("got a key this server cannot read as RSA");
    assertThat(refusal(blank)).endsWith("got nothing");
  }

  @Test
  void aBase64RunWithoutAnEndLine_isNotAPem() {
    String run = BEGIN + "A".repeat(BackupRecipient.MAX_PEM_CHARS - BEGIN.length());
    assertThat(refusal(run)).endsWith("got 16384 characters that are not one");

    String lines = BEGIN + "\n" + "AAAA\n".repeat(3000);
    assertThat(refusal(lines)).endsWith("characters that are not one");
  }

  @Test
  void anythingBeforeBegin_afterEnd_orInsideTheBody_isNotAPem() {
    String body = body(OPENSSL_PEM);
    for (String junk :
        new String[] {
          OPENSSL_PEM + "x",
          OPENSSL_PEM + OPENSSL_PEM,
          "x" + OPENSSL_PEM,
          BEGIN + "\n" + body + "\n-----END RSA PUBLIC KEY-----",
          "-----BEGIN RSA PUBLIC KEY-----\n" + body + "\n" + END,
          BEGIN + "\n" + body.replaceFirst("\n", "\n-\n") + "\n" + END,
          BEGIN + "\n" + body.replaceFirst("\n", "\n\u00a0\n") + "\n" + END,
          BEGIN + END,
          BEGIN.substring(0, 20) + END,
        }) {
      assertThat(refusal(junk)).as(junk).contains("must be a PEM \"PUBLIC KEY\"");
    }
  }

  @Test
  void aKeyOfAnotherSize_orNotRsa_saysWhatItGot() throws Exception {
    assertThat(refusal(pem(newKey(2048)))).endsWith("got 2048 bits");

    PublicKey ec = KeyPairGenerator.getInstance("EC").generateKeyPair().getPublic();
    assertThat(refusal(pem(ec))).contains("got a key this server cannot read as RSA");
  }

  /** The message of {@code pem}'s refusal, which must be INVALID_ARGUMENT. */
  private static String refusal(String pem) {
    try {
      BackupRecipient.parse(pem);
    } catch (InvalidArgumentException refused) {
      assertThat(refused.kind()).isEqualTo(ErrorKind.INVALID_ARGUMENT);
      return refused.getMessage();
    }
    throw new AssertionError("accepted: " + pem.length() + " characters");
  }

  /** The lines between {@code pem}'s armour lines, as written. */
  private static String body(String pem) {
    return pem.strip().substring(BEGIN.length(), pem.strip().length() - END.length()).strip();
  }

  private static PublicKey newKey(int bits) throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(bits);
    return generator.generateKeyPair().getPublic();
  }

  private static String pem(PublicKey key) {
    return BEGIN
        + "\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
        + "\n"
        + END
        + "\n";
  }

  private static String resource(String name) {
    try (InputStream in = BackupRecipientTest.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the test resources");
      }
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
