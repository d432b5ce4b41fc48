package io.cipherd.loadtest.echo;

import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResponse;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.grpc.stub.StreamObserver;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * cipherd.v1.CryptoService answering Encrypt, EncryptBatch and ReEncryptBatch with responses of the
 * shapes and sizes cipherd returns for a gcm key, without crypto: the same fields set, references
 * echoed, and a ciphertext string of the length cipherd's would have ({@code <NAME/vN:gcm>} plus the
 * padded base64 of 12-byte IV, ciphertext and 16-byte tag), taken from a cache. The runner checks
 * the sizes against cipherd's answers to the very same request bodies. Other methods stay
 * UNIMPLEMENTED.
 */
final class EchoService extends CryptoServiceGrpc.CryptoServiceImplBase {
  /** What Encrypt and EncryptBatch answer: the first version of a fresh key. */
  static final int ENCRYPT_VERSION = 1;
  /** What ReEncryptBatch answers: ciphertexts of v1 rewrapped to v2 after one rotation. */
  static final int REENCRYPT_VERSION = 2;
  static final int SOURCE_VERSION = 1;
  private static final int GCM_OVERHEAD = 12 + 16;

  private final Map<String, String> ciphertexts = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();

  Map<String, LongAdder> calls() {
    return calls;
  }

  private void count(String method) {
    calls.computeIfAbsent(method, m -> new LongAdder()).increment();
  }

  /** The cached ciphertext text for a payload of plainLength bytes under key name and version. */
  String ciphertext(String keyName, int version, int plainLength) {
    String cacheKey = keyName + '/' + version + '/' + plainLength;
    String cached = ciphertexts.get(cacheKey);
    if (cached != null) {
      return cached;
    }
    String text = "<" + keyName + "/v" + version + ":gcm>"
        + Base64.getEncoder().encodeToString(new byte[plainLength + GCM_OVERHEAD]);
    ciphertexts.putIfAbsent(cacheKey, text);
    return text;
  }

  /** The payload length of a gcm ciphertext text, from its base64 length (no decoding). */
  static int plainLengthOf(String ciphertext) {
    int close = ciphertext.indexOf('>');
    int b64 = ciphertext.length() - close - 1;
    int pad = ciphertext.endsWith("==") ? 2 : ciphertext.endsWith("=") ? 1 : 0;
    return b64 / 4 * 3 - pad - GCM_OVERHEAD;
  }

  @Override
  public void encrypt(EncryptRequest request, StreamObserver<EncryptResponse> out) {
    count("Encrypt");
    out.onNext(EncryptResponse.newBuilder()
        .setCiphertext(ciphertext(request.getKeyName(), ENCRYPT_VERSION, request.getPlaintext().size()))
        .setKeyVersion(ENCRYPT_VERSION)
        .build());
    out.onCompleted();
  }

  @Override
  public void encryptBatch(EncryptBatchRequest request, StreamObserver<EncryptBatchResponse> out) {
    count("EncryptBatch");
    EncryptBatchResponse.Builder response = EncryptBatchResponse.newBuilder();
    for (EncryptBatchItem item : request.getItemsList()) {
      response.addResults(EncryptBatchResult.newBuilder()
          .setReference(item.getReference())
          .setCiphertext(ciphertext(request.getKeyName(), ENCRYPT_VERSION, item.getPlaintext().size()))
          .setKeyVersion(ENCRYPT_VERSION));
    }
    out.onNext(response.build());
    out.onCompleted();
  }

  @Override
  public void reEncryptBatch(ReEncryptBatchRequest request, StreamObserver<ReEncryptBatchResponse> out) {
    count("ReEncryptBatch");
    ReEncryptBatchResponse.Builder response = ReEncryptBatchResponse.newBuilder();
    for (ReEncryptBatchItem item : request.getItemsList()) {
      response.addResults(ReEncryptBatchResult.newBuilder()
          .setReference(item.getReference())
          .setCiphertext(ciphertext(request.getKeyName(), REENCRYPT_VERSION, plainLengthOf(item.getCiphertext())))
          .setKeyVersion(REENCRYPT_VERSION)
          .setSourceKeyVersion(SOURCE_VERSION));
    }
    out.onNext(response.build());
    out.onCompleted();
  }
}
