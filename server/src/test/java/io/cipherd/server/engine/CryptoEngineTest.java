package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.CountingKeyStore;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.AccessDeniedException;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import io.cipherd.server.security.TestDenials;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The crypto operations on domain types: round trips, rewraps, inspection, refusals and what they
 * observe.
 */
class CryptoEngineTest {
  private static final ByteString SECRET = ByteString.copyFromUtf8("a secret worth keeping");
  private static final ByteString CONTEXT = ByteString.copyFromUtf8("tenant=7");

  private final CountingKeyStore store = new CountingKeyStore(new InMemoryKeyStore());
  private final Keys keys = Keys.over(store);
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final List<String> observed = new ArrayList<>();
  private final CryptoObserver recorder =
      new CryptoObserver() {
        @Override
        public void succeeded(
            CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
          // One item as "OP ok VERSION BYTES"; a batch's items told at once with their count.
          String count = items == 1 ? "" : " x" + items;
          observed.add(operation + " ok " + version + count + " " + plaintextBytes);
        }

        @Override
        public void failed(
            CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
          observed.add(operation + " failed " + version + " " + error.getClass().getSimpleName());
        }
      };
  private final CryptoEngine engine =
      new CryptoEngine(keys.cache(), pools, Authorizer.ALLOW_ALL, recorder);

  @AfterEach
  void closePools() {
    pools.close();
  }

  @Test
  void encrypt_thenDecrypt_returnsThePlaintext_underTheCurrentVersion() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));

    Encrypted encrypted = engine.encrypt("orders", 0, SECRET, CONTEXT);
    Decrypted decrypted = engine.decrypt(encrypted.ciphertext().toStringUtf8(), CONTEXT);

    assertThat(encrypted.ciphertext().toStringUtf8()).startsWith("<orders/v1:gcm>");
    assertThat(ByteString.copyFrom(decrypted.plaintext())).isEqualTo(SECRET);
    assertThat(decrypted.header().version()).isEqualTo(1);
    assertThat(observed)
        .containsExactly(
            "ENCRYPT ok <orders/v1:gcm> " + SECRET.size(),
            "DECRYPT ok <orders/v1:gcm> " + SECRET.size());
  }

  @Test
  void everyMode_decryptsToAnArrayOfExactlyThePlaintext_andATamperedOneFails() {
    for (CipherMode mode : CipherMode.values()) {
      if (mode == CipherMode.ECB) {
        // Only decrypts, and padded like cbc: nothing this path does differently.
        continue;
      }
      String name = "k-" + mode.headerName();
      keys.create(name, KeyTemplate.of(mode).allowingUnauthenticated());
      // Only AEAD modes bind a context.
      ByteString context = mode.isAead() ? CONTEXT : ByteString.EMPTY;
      for (int length : new int[] {0, 1, 15, 16, 17, 100}) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
          bytes[i] = (byte) (i * 7 + 1);
        }
        ByteString plaintext = ByteString.copyFrom(bytes);
        String ciphertext = engine.encrypt(name, 0, plaintext, context).ciphertext().toStringUtf8();

        byte[] decrypted = engine.decrypt(ciphertext, context).plaintext();

        assertThat(decrypted).as("%s, %d bytes", mode, length).isEqualTo(plaintext.toByteArray());
      }
      if (mode.isAead()) {
        String ciphertext = engine.encrypt(name, 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
        // A digit inside the payload, away from the padding: still canonical base64.
        int at = ciphertext.indexOf('>') + 10;
        String tampered =
            ciphertext.substring(0, at)
                + (ciphertext.charAt(at) == 'A' ? 'B' : 'A')
                + ciphertext.substring(at + 1);
        assertThatThrownBy(() -> engine.decrypt(tampered, CONTEXT))
            .as("%s", mode)
            .isInstanceOf(DecryptionFailedException.class);
      }
    }
  }

  @Test
  void decrypt_withAnotherContext_failsAsDecryptionFailed() {
    keys.create("orders", KeyTemplate.of(CipherMode.CHACHA));
    String ciphertext = engine.encrypt("orders", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();

    assertThatThrownBy(() -> engine.decrypt(ciphertext, ByteString.copyFromUtf8("tenant=8")))
        .isInstanceOf(DecryptionFailedException.class)
        .hasMessage("decryption failed");
  }

  @Test
  void reEncrypt_rewrapsToTheCurrentVersion_withoutChangingThePlaintext() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String v1 = engine.encrypt("orders", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
    keys.rotate("orders", KeyTemplate.of(CipherMode.CHACHA));

    ReEncrypted rewrapped = engine.reEncrypt(v1, CONTEXT, "");

    assertThat(rewrapped.sourceVersion()).isEqualTo(1);
    assertThat(rewrapped.encrypted().ciphertext().toStringUtf8()).startsWith("<orders/v2:chacha>");
    assertThat(
            ByteString.copyFrom(
                engine
                    .decrypt(rewrapped.encrypted().ciphertext().toStringUtf8(), CONTEXT)
                    .plaintext()))
        .isEqualTo(SECRET);
  }

  @Test
  void reEncrypt_intoAnotherKey_keepsTheContextBound() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    keys.create("archive", KeyTemplate.of(CipherMode.GCM));
    String ciphertext = engine.encrypt("orders", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();

    String moved =
        engine.reEncrypt(ciphertext, CONTEXT, "archive").encrypted().ciphertext().toStringUtf8();

    assertThat(moved).startsWith("<archive/v1:gcm>");
    assertThatThrownBy(() -> engine.decrypt(moved, ByteString.EMPTY))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @Test
  void inspect_readsTheHeaderAndTheCurrentVersion_withoutDecrypting() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String v1 = engine.encrypt("orders", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
    keys.rotate("orders", KeyTemplate.defaults());
    observed.clear();

    Inspection inspection = engine.inspect(v1);

    assertThat(inspection.header()).isEqualTo(new EnvelopeHeader("orders", 1, CipherMode.GCM));
    assertThat(inspection.currentVersion()).isEqualTo(2);
    assertThat(inspection.behindCurrent()).isTrue();
    assertThat(observed).as("inspecting is not a crypto operation").isEmpty();
  }

  @Test
  void aContext_forAnUnauthenticatedMode_isRefused() {
    keys.create("legacy", KeyTemplate.of(CipherMode.CBC).allowingUnauthenticated());

    assertThatThrownBy(() -> engine.encrypt("legacy", 0, SECRET, CONTEXT))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("only bound by AEAD modes");
  }

  @Test
  void aMalformedCiphertext_failsWithoutALabel_andNeedsNoStore() {
    assertThatThrownBy(() -> engine.decrypt("<orders/v1:gcm>not*base64", CONTEXT))
        .isInstanceOf(InvalidCiphertextException.class);

    assertThat(observed).containsExactly("DECRYPT failed null InvalidCiphertextException");
    assertThat(store.totalCalls()).isZero();
  }

  @Test
  void aHotKeysCiphertext_withABadPayload_failsAsItsBytesWould_observedOnce() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String good = engine.encrypt("orders", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
    int last = good.length() - 3;
    // '\u0141' ends in 0x41 ('A'): read as its low byte it would be a digit.
    String widened = good.substring(0, last) + '\u0141' + good.substring(last + 1);
    String padded = good.substring(0, good.length() - 4) + "A===";
    observed.clear();

    assertThatThrownBy(() -> engine.decrypt(widened, CONTEXT))
        .isInstanceOf(InvalidCiphertextException.class)
        .hasMessageContaining("base64");
    assertThatThrownBy(() -> engine.reEncrypt(padded, CONTEXT, ""))
        .isInstanceOf(InvalidCiphertextException.class)
        .hasMessageContaining("base64");
    assertThat(observed)
        .containsExactly(
            "DECRYPT failed null InvalidCiphertextException",
            "DECRYPT failed null InvalidCiphertextException");
    assertThat(engine.decrypt(good, CONTEXT).plaintext()).isEqualTo(SECRET.toByteArray());
  }

  @Test
  void anUnknownKey_isNotFound_andObservedWithoutItsName() {
    assertThatThrownBy(() -> engine.encrypt("no-such-key", 0, SECRET, CONTEXT))
        .isInstanceOf(KeyNotFoundException.class);

    assertThat(observed).containsExactly("ENCRYPT failed null KeyNotFoundException");
  }

  @Test
  void aRefusedCaller_isStoppedBeforeAnyKeyIsRead() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String ciphertext = engine.encrypt("orders", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
    keys.invalidateAll();
    store.resetCounts();
    CryptoEngine refusing =
        new CryptoEngine(keys.cache(), pools, new RefuseAll(), CryptoObserver.NONE);

    assertThatThrownBy(() -> refusing.encrypt("orders", 0, SECRET, CONTEXT))
        .isInstanceOf(AccessDeniedException.class);
    assertThatThrownBy(() -> refusing.decrypt(ciphertext, CONTEXT))
        .isInstanceOf(AccessDeniedException.class);
    assertThatThrownBy(() -> refusing.reEncrypt(ciphertext, CONTEXT, ""))
        .isInstanceOf(AccessDeniedException.class);
    assertThatThrownBy(() -> refusing.inspect(ciphertext))
        .isInstanceOf(AccessDeniedException.class);
    assertThat(store.totalCalls()).isZero();
  }

  @Test
  void anUnexpectedKey_isRefusedBeforeTheAuthorizerOrTheStore_observedWithoutALabel() {
    keys.create("users-email", KeyTemplate.of(CipherMode.GCM));
    keys.create("attacker-key", KeyTemplate.of(CipherMode.GCM));
    String planted = engine.encrypt("attacker-key", 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
    String ghost = planted.replace("<attacker-key/", "<no-such-key/");
    keys.invalidateAll();
    store.resetCounts();
    observed.clear();
    ExpectedKey expected = ExpectedKey.parse("users-email", "expected_key");
    CryptoEngine refusing = new CryptoEngine(keys.cache(), pools, new RefuseAll(), recorder);

    for (String ciphertext : List.of(planted, ghost)) {
      assertThatThrownBy(() -> refusing.decrypt(ciphertext, CONTEXT, expected))
          .isInstanceOf(UnexpectedKeyException.class);
      assertThatThrownBy(() -> refusing.reEncrypt(ciphertext, CONTEXT, "", expected))
          .isInstanceOf(UnexpectedKeyException.class);
      assertThatThrownBy(() -> refusing.reEncrypt(ciphertext, CONTEXT, "users-email", expected))
          .isInstanceOf(UnexpectedKeyException.class);
    }
    LegacyItem legacy = new LegacyItem("mysql-users", 0, new byte[16], new byte[0]);
    assertThatThrownBy(() -> refusing.reEncryptLegacy(legacy, CONTEXT, "users-email", expected))
        .isInstanceOf(UnexpectedKeyException.class);

    assertThat(store.totalCalls()).as("no key looked up").isZero();
    assertThat(observed)
        .as("each a decrypt that reached no version: a planted name is never a label")
        .hasSize(7)
        .containsOnly("DECRYPT failed null UnexpectedKeyException");
    // The same ciphertext without the expectation decrypts: that is what the option is for.
    assertThat(engine.decrypt(planted, CONTEXT).plaintext()).isEqualTo(SECRET.toByteArray());
    assertThat(engine.decrypt(planted, CONTEXT, ExpectedKey.parse("attacker-*", "x")).plaintext())
        .isEqualTo(SECRET.toByteArray());
  }

  @Test
  void inBatch_runsEveryItem_andReturnsItsCiphersToThePools() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));

    List<String> ciphertexts =
        engine.inBatch(
            batch -> {
              List<String> out = new ArrayList<>();
              for (int i = 0; i < 10; i++) {
                out.add(batch.encrypt("orders", 0, SECRET, CONTEXT).ciphertext().toStringUtf8());
              }
              return out;
            });

    assertThat(ciphertexts).hasSize(10).doesNotHaveDuplicates();
    assertThat(pools.pool(CipherMode.GCM).getNumActive()).isZero();
  }

  /** An access policy that lets nobody do anything. */
  private static final class RefuseAll implements Authorizer {
    @Override
    public void check(Operation operation, String keyName) {
      throw TestDenials.denied();
    }

    @Override
    public boolean allows(Operation operation, String keyName) {
      return false;
    }

    @Override
    public void checkReEncrypt(String sourceKey, KeyType sourceType, String targetKey) {
      throw TestDenials.denied();
    }

    @Override
    public void checkReIndex(String sourceKey, KeyType sourceType) {
      throw TestDenials.denied();
    }
  }

  @Test
  void aBatchThatThrowsMidway_countsExactlyWhatItEncrypted_andGivesItsBlockBack() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    keys.create("legacy", KeyTemplate.of(CipherMode.CBC).allowingUnauthenticated());
    long[] midway = new long[1];

    assertThatThrownBy(
            () ->
                engine.inBatch(
                    batch -> {
                      for (int i = 0; i < 100; i++) {
                        batch.encrypt("orders", 0, SECRET, ByteString.EMPTY);
                      }
                      // The first item reserved alone, the rest from blocks of 64.
                      midway[0] = keys.usage().encryptions("orders", 1);
                      return batch.encrypt("legacy", 0, SECRET, CONTEXT); // no AEAD: refused
                    }))
        .isInstanceOf(InvalidArgumentException.class);

    assertThat(midway[0]).isEqualTo(1 + 2 * 64);
    assertThat(keys.usage().encryptions("orders", 1)).isEqualTo(100);
    assertThat(keys.usage().usage("orders").get(1).encryptions()).isEqualTo(100);
    assertThat(keys.usage().encryptions("legacy", 1)).isZero();
  }

  @Test
  void aLeaseItemThatFails_givesItsEncryptionBack_andForgettingCountsTheRun() {
    // No limit (cbc): the lease counts its encryptions itself, and records them when it forgets.
    keys.create("legacy", KeyTemplate.of(CipherMode.CBC).allowingUnauthenticated());
    try (LeasedEngine lease = engine.lease()) {
      for (int i = 0; i < 70; i++) {
        lease.engine().encrypt("legacy", 0, SECRET, ByteString.EMPTY);
      }
      // A context without AEAD fails after the encryption was taken: it counts no more.
      assertThatThrownBy(() -> lease.engine().encrypt("legacy", 0, SECRET, CONTEXT))
          .isInstanceOf(InvalidArgumentException.class);
      // Only the first, which asked the cache, is counted yet: the other 69 wait for the lease.
      assertThat(keys.usage().usage("legacy").get(1).encryptions()).isEqualTo(1);
      lease.forgetKeys(); // a stream's look: counted, the block's rest given back
      assertThat(keys.usage().encryptions("legacy", 1)).isEqualTo(70);
      assertThat(keys.usage().usage("legacy").get(1).encryptions()).isEqualTo(70);
      lease.engine().encrypt("legacy", 0, SECRET, ByteString.EMPTY);
    }
    assertThat(keys.usage().encryptions("legacy", 1)).isEqualTo(71);
    assertThat(keys.usage().usage("legacy").get(1).encryptions()).isEqualTo(71);
  }
}
