package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReIndexBatchItem;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.fpe.FormatTemplate;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.engine.ExpectedKey;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.logging.CallRequest;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one view of a request: its routing decision (whether its keys are in memory), the key name
 * access-log lines show (never the data), and what the audit record counts.
 */
class ParsedRequestTest {
  private static final ByteString SECRET = ByteString.copyFromUtf8("a secret worth keeping");
  private static final ByteString CONTEXT = ByteString.copyFromUtf8("tenant=7");
  private static final LegacyCiphertext LEGACY =
      LegacyCiphertext.newBuilder()
          .setKeyName("mysql-users")
          .setHex("FF06A56B4E88C828A010E9BD0CE70A89")
          .build();

  private final Keys keys = Keys.over(new InMemoryKeyStore());
  private final KeyCache cache = keys.cache();
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final CryptoEngine engine =
      new CryptoEngine(cache, pools, Authorizer.ALLOW_ALL, CryptoObserver.NONE);

  @AfterEach
  void closePools() {
    pools.close();
  }

  private String encrypt(String key) {
    return engine.encrypt(key, 0, SECRET, CONTEXT).ciphertext().toStringUtf8();
  }

  private boolean decryptBatchFromMemory(List<String> ciphertexts, List<String> expectedKeys) {
    DecryptBatchRequest.Builder request = DecryptBatchRequest.newBuilder();
    for (int i = 0; i < ciphertexts.size(); i++) {
      request.addItems(
          DecryptBatchItem.newBuilder()
              .setCiphertext(ciphertexts.get(i))
              .setExpectedKey(expectedKeys.get(i)));
    }
    return ParsedRequest.read(request.build()).fromMemory(cache);
  }

  private boolean decryptBatchFromMemory(List<String> ciphertexts, String expectedKey) {
    return decryptBatchFromMemory(ciphertexts, ciphertexts.stream().map(c -> expectedKey).toList());
  }

  private boolean decryptFromMemory(String ciphertext, String expectedKey) {
    return ParsedRequest.read(
            DecryptRequest.newBuilder()
                .setCiphertext(ciphertext)
                .setExpectedKey(expectedKey)
                .build())
        .fromMemory(cache);
  }

  private boolean reEncryptFromMemory(String ciphertext, String target, String expectedKey) {
    return ParsedRequest.read(
            ReEncryptRequest.newBuilder()
                .setCiphertext(ciphertext)
                .setKeyName(target)
                .setExpectedKey(expectedKey)
                .build())
        .fromMemory(cache);
  }

  /** A ciphertext under each of two keys, of which only "orders" is loaded now. */
  private record TwoKeys(String orders, String archive) {}

  private TwoKeys ordersLoadedArchiveNot() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    keys.create("archive", KeyTemplate.of(CipherMode.GCM));
    String orders = encrypt("orders");
    String archive = encrypt("archive");
    keys.invalidateAll();
    engine.decrypt(orders, CONTEXT);
    return new TwoKeys(orders, archive);
  }

  @Test
  void aDecryptBatch_findsTheOneItemWhoseKeyIsNotLoaded_behindSharedHeaders() {
    TwoKeys made = ordersLoadedArchiveNot();
    String orders = made.orders();
    String archive = made.archive();

    assertThat(decryptBatchFromMemory(List.of(orders, orders, "not a ciphertext", orders), ""))
        .isTrue();
    // A legacy item (checked on its own, by its legacy key) has no ciphertext to decrypt.
    ReEncryptBatchRequest withLegacy =
        ReEncryptBatchRequest.newBuilder()
            .addItems(ReEncryptBatchItem.newBuilder().setCiphertext(orders))
            .addItems(ReEncryptBatchItem.newBuilder().setLegacy(LEGACY).setExpectedKey("orders"))
            .addItems(ReEncryptBatchItem.newBuilder().setCiphertext(orders))
            .build();
    assertThat(ParsedRequest.read(withLegacy).fromMemory(cache)).isTrue();
    assertThat(decryptBatchFromMemory(List.of(orders, orders, "x", orders, archive), ""))
        .as("the last item's key is not loaded")
        .isFalse();
    assertThat(decryptBatchFromMemory(List.of(orders, orders, "x", orders, archive, orders), ""))
        .isFalse();
    // A text that starts like a cached header but names another version is parsed, not trusted.
    String v9 = orders.replace("/v1:", "/v9:");
    assertThat(decryptBatchFromMemory(List.of(orders, v9), "")).isFalse();
    ReIndexBatchRequest reIndex =
        ReIndexBatchRequest.newBuilder()
            .setIndexKeyName("orders")
            .addItems(ReIndexBatchItem.newBuilder().setCiphertext(orders))
            .addItems(ReIndexBatchItem.newBuilder().setCiphertext(v9))
            .build();
    assertThat(ParsedRequest.read(reIndex).fromMemory(cache)).isFalse();
  }

  @Test
  void itemsAnExpectedKeyRefuses_needNoKey() {
    TwoKeys made = ordersLoadedArchiveNot();
    String orders = made.orders();
    String archive = made.archive();
    List<String> batch = List.of(orders, archive, orders);

    assertThat(decryptFromMemory(archive, "")).isFalse();
    assertThat(decryptFromMemory(archive, "orders"))
        .as("refused at once: archive's key is never needed")
        .isTrue();
    assertThat(decryptFromMemory(archive, "archive")).isFalse();
    assertThat(decryptFromMemory(archive, "*")).as("invalid: fails at once").isTrue();
    assertThat(decryptBatchFromMemory(batch, "orders")).isTrue();
    assertThat(decryptBatchFromMemory(batch, "")).isFalse();
    assertThat(decryptBatchFromMemory(batch, List.of("", "arc*", "")))
        .as("the item's own expectation accepts archive")
        .isFalse();
    assertThat(reEncryptFromMemory(archive, "", "orders")).isTrue();
    ReEncryptRequest.Builder legacy =
        ReEncryptRequest.newBuilder().setLegacy(LEGACY).setKeyName("orders");
    assertThat(ParsedRequest.read(legacy.setExpectedKey("orders").build()).fromMemory(cache))
        .isTrue();
    assertThat(ParsedRequest.read(legacy.setExpectedKey("").build()).fromMemory(cache)).isFalse();
  }

  @Test
  void aRewrap_runsFromMemory_onlyOnceBothKeysAreLoaded() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    keys.create("archive", KeyTemplate.of(CipherMode.GCM));
    String ciphertext = encrypt("orders");

    assertThat(reEncryptFromMemory(ciphertext, "", "")).isTrue();
    assertThat(reEncryptFromMemory(ciphertext, "archive", ""))
        .as("archive's bytes not loaded yet")
        .isFalse();
    engine.encrypt("archive", 0, SECRET, CONTEXT);
    assertThat(reEncryptFromMemory(ciphertext, "archive", "")).isTrue();
  }

  @Test
  void aCiphertextWhoseHeaderDoesNotParse_failsAtOnce_soNeedsNoStore() {
    String disguisedName = "<\u014b/v1:gcm>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    assertThat(decryptFromMemory("no header at all", "")).isTrue();
    assertThat(decryptFromMemory(disguisedName, "")).isTrue();
    assertThat(
            ParsedRequest.read(InspectRequest.newBuilder().setCiphertext(disguisedName).build())
                .keyName())
        .isEqualTo(CallRequest.INVALID);
  }

  @Test
  void theHeaderParsedToRoute_isTheOneHandedToTheEngine() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String ciphertext = encrypt("orders");
    ParsedRequest parsed =
        ParsedRequest.read(DecryptRequest.newBuilder().setCiphertext(ciphertext).build());

    assertThat(parsed.fromMemory(cache)).isTrue();
    assertThat(parsed.header()).isNotNull().isSameAs(parsed.header());
    assertThat(parsed.header().versionedName()).isEqualTo("orders/v1");
    assertThat(engine.decrypt(parsed.header(), ciphertext, CONTEXT, ExpectedKey.ANY).plaintext())
        .isEqualTo(SECRET.toByteArray());
    assertThat(
            ParsedRequest.read(InspectRequest.newBuilder().setCiphertext("<bad").build()).header())
        .isNull();
  }

  @Test
  void legacyRewrap_showsTheLegacyKeyAndTheTarget() {
    assertThat(
            ParsedRequest.read(
                    ReEncryptRequest.newBuilder().setLegacy(LEGACY).setKeyName("modern").build())
                .keyName())
        .isEqualTo("mysql-users->modern");
    assertThat(
            ParsedRequest.read(
                    ReEncryptStreamRequest.newBuilder()
                        .setLegacy(LEGACY.toBuilder().setKeyVersion(2))
                        .setKeyName("modern")
                        .build())
                .keyName())
        .isEqualTo("mysql-users/v2->modern");
    assertThat(
            ParsedRequest.read(
                    ReEncryptBatchRequest.newBuilder()
                        .setKeyName("modern")
                        .addItems(ReEncryptBatchItem.newBuilder().setLegacy(LEGACY))
                        .build())
                .keyName())
        .isEqualTo("mysql-users->modern");
  }

  @Test
  void aRestore_showsTheKeyItNames_notItsJob() {
    assertThat(
            ParsedRequest.read(
                    RestoreKeyRequest.newBuilder()
                        .setKeyName("archive")
                        .setImportJobId("0123456789abcdef0123456789abcdef")
                        .build())
                .keyName())
        .isEqualTo("archive");
    assertThat(
            ParsedRequest.read(
                    RestoreKeyRequest.newBuilder()
                        .setImportJobId("0123456789abcdef0123456789abcdef")
                        .build())
                .keyName())
        .isEqualTo(CallRequest.NONE);
  }

  @Test
  void legacyRewrap_withAHostileOrMissingName_showsNeither() {
    assertThat(
            ParsedRequest.read(
                    ReEncryptRequest.newBuilder()
                        .setLegacy(LEGACY.toBuilder().setKeyName("x\nforged line").setKeyVersion(3))
                        .build())
                .keyName())
        .isEqualTo(CallRequest.INVALID + "->" + CallRequest.NONE);
  }

  @Test
  void formattedRequests_showTheirKey_countTheirItems_andRouteByTheVersionTheyName() {
    keys.create(
        "cards",
        KeyTemplate.formatPreserving(FpeFormat.ofTemplate(FormatTemplate.DIGITS, false, 0)));
    keys.invalidateAll();
    DecryptFormattedBatchRequest batch =
        DecryptFormattedBatchRequest.newBuilder()
            .setKeyName("cards")
            .setContext(CONTEXT)
            .setKeyVersion(1)
            .addItems(FormattedBatchItem.newBuilder().setValue("4111111111111111"))
            .addItems(FormattedBatchItem.newBuilder().setValue("4242424242424242"))
            .build();
    ParsedRequest parsed = ParsedRequest.read(batch);

    assertThat(parsed.keyName()).isEqualTo("cards");
    assertThat(parsed.items()).isEqualTo(2);
    assertThat(parsed.firstContext()).isEqualTo(CONTEXT);
    assertThat(parsed.fromMemory(cache)).as("version 1 not loaded").isFalse();
    engine.formatted().encrypt("cards", "4111111111111111", CONTEXT.toByteArray());
    assertThat(ParsedRequest.read(batch).fromMemory(cache)).isTrue();
    assertThat(
            ParsedRequest.read(
                    MaskFormattedRequest.newBuilder()
                        .setKeyName("x\nforged")
                        .setValue("4111111111111111")
                        .build())
                .keyName())
        .isEqualTo(CallRequest.INVALID);
    assertThat(
            ParsedRequest.read(EncryptFormattedRequest.newBuilder().setKeyName("cards").build())
                .items())
        .isOne();
  }

  @Test
  void formattedStreamItems_showTheirKey_oneItemEach_andRouteByTheVersionTheyName() {
    keys.create(
        "cards",
        KeyTemplate.formatPreserving(FpeFormat.ofTemplate(FormatTemplate.DIGITS, false, 0)));
    keys.invalidateAll();
    EncryptFormattedStreamRequest encrypt =
        EncryptFormattedStreamRequest.newBuilder()
            .setKeyName("cards")
            .setValue("4111111111111111")
            .setContext(CONTEXT)
            .build();
    DecryptFormattedStreamRequest decrypt =
        DecryptFormattedStreamRequest.newBuilder()
            .setKeyName("cards")
            .setValue("4111111111111111")
            .setContext(CONTEXT)
            .setKeyVersion(1)
            .build();
    ReEncryptFormattedStreamRequest reEncrypt =
        ReEncryptFormattedStreamRequest.newBuilder()
            .setKeyName("cards")
            .setValue("4111111111111111")
            .setKeyVersion(1)
            .build();
    for (Object item : List.of(encrypt, decrypt, reEncrypt)) {
      ParsedRequest parsed = ParsedRequest.read(item);
      assertThat(parsed.keyName()).as("%s", item.getClass().getSimpleName()).isEqualTo("cards");
      assertThat(parsed.items()).isOne();
      assertThat(parsed.fromMemory(cache)).as("version 1 not loaded").isFalse();
    }
    assertThat(ParsedRequest.read(decrypt).firstContext()).isEqualTo(CONTEXT);

    engine.formatted().encrypt("cards", "4111111111111111", CONTEXT.toByteArray());
    for (Object item : List.of(encrypt, decrypt, reEncrypt)) {
      assertThat(ParsedRequest.read(item).fromMemory(cache))
          .as("%s once version 1 is cached", item.getClass().getSimpleName())
          .isTrue();
    }
    assertThat(ParsedRequest.read(decrypt.toBuilder().setKeyVersion(2).build()).fromMemory(cache))
        .as("a version not loaded")
        .isFalse();
    assertThat(
            ParsedRequest.read(
                    ReEncryptFormattedStreamRequest.newBuilder().setKeyName("x\nforged").build())
                .keyName())
        .isEqualTo(CallRequest.INVALID);
  }

  @Test
  void aBatch_isCountedByItsItems_withItsFirstItemsContext_readWhereItLies() {
    EncryptBatchRequest batch =
        EncryptBatchRequest.newBuilder()
            .setKeyName("orders")
            .addItems(EncryptBatchItem.newBuilder().setContext(CONTEXT))
            .addItems(EncryptBatchItem.newBuilder())
            .build();
    ParsedRequest parsed = ParsedRequest.read(batch);

    assertThat(parsed.items()).isEqualTo(2);
    assertThat(parsed.firstContext()).isSameAs(batch.getItems(0).getContext());
    assertThat(parsed.keyName()).isEqualTo("orders");
    assertThat(parsed.message()).isSameAs(batch);
    ParsedRequest unary =
        ParsedRequest.read(EncryptRequest.newBuilder().setKeyName("bad name!").build());
    assertThat(unary.items()).isEqualTo(1);
    assertThat(unary.keyName()).isEqualTo(CallRequest.INVALID);
    assertThat(ParsedRequest.read("not a request").items()).isZero();
    assertThat(ParsedRequest.read("not a request").keyName()).isEqualTo(CallRequest.NONE);
    assertThat(ParsedRequest.of(batch))
        .as("outside a call, made anew")
        .isNotSameAs(parsed)
        .extracting(ParsedRequest::items)
        .isEqualTo(2);
  }
}
