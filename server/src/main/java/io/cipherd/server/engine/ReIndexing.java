package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.index.BlindIndex;
import io.cipherd.server.crypto.index.Normalization;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.security.Authorizer;

/**
 * ReIndex: the blind index of a ciphertext's plaintext under an index key's current version, the
 * plaintext decrypted into this thread's {@link WorkBuffers} and wiped there, never returned. The
 * server-side form of re-indexing a column after its index key rotates, for a job that holds {@code
 * reindex} on the column's key and {@code index} on the index key, and no {@code decrypt}.
 *
 * <p>Everything that does not depend on the plaintext is decided before decrypting: the request's
 * own fields, the expected key, both grants (an unauthenticated mode's ciphertext also needs {@code
 * decrypt}, see {@link Authorizer#checkReIndex}) and the index key. So a caller learns from a
 * failure only what a Decrypt would tell it (the one "decryption failed"), or that the plaintext
 * does not take the normalization asked for.
 */
public final class ReIndexing {
  private final Authorizer authorizer;
  private final CryptoObserver observer;
  private final EnvelopeCipher envelopes;
  private final BlindIndexes indexes;

  ReIndexing(
      Authorizer authorizer,
      CryptoObserver observer,
      EnvelopeCipher envelopes,
      BlindIndexes indexes) {
    this.authorizer = authorizer;
    this.observer = observer;
    this.envelopes = envelopes;
    this.indexes = indexes;
  }

  /**
   * The blind index of a ciphertext's plaintext under the current version of index key {@code
   * indexKeyName}, normalized as asked and cut to {@code lengthBytes} (0: the whole HMAC), as
   * ComputeIndex would give for that plaintext. Needs {@code reindex} on the ciphertext's key (and
   * {@code decrypt} too for an unauthenticated mode) and {@code index} on the index key, checked
   * with {@code expectedKey} (empty: any key) before anything is decrypted. The plaintext never
   * leaves this thread's {@link WorkBuffers}, and is wiped there before this returns.
   */
  public ReIndexed reIndex(
      String ciphertext,
      ByteString context,
      String expectedKey,
      String indexKeyName,
      Normalization normalization,
      int lengthBytes) {
    int length = BlindIndex.length(lengthBytes);
    ExpectedKey expected = ExpectedKey.parse(expectedKey, "expected_key");
    ParsedCiphertext parsed = CiphertextInput.parse(envelopes, ciphertext, context);
    try {
      EnvelopeHeader header = parsed.header();
      CryptoEngine.expect(expected, header.keyName(), observer);
      authorizer.checkReIndex(header.keyName(), header.type());
      UsableKey indexKey = indexes.currentIndexKey(indexKeyName);
      return envelopes.decrypt(
          parsed,
          plaintext ->
              new ReIndexed(
                  indexes.indexWith(indexKey, plaintext, normalization, length), header.version()));
    } finally {
      parsed.wipe();
    }
  }
}
