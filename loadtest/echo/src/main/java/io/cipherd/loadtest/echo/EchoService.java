package io.cipherd.loadtest.echo;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResponse;
import io.cipherd.api.v1.DecryptBatchResult;
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
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.grpc.stub.StreamObserver;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * cipherd.v1.CryptoService answering Encrypt, EncryptBatch, DecryptBatch, ReEncryptBatch and
 * ReEncryptStream with responses of the shapes and sizes cipherd returns for a gcm key, without
 * crypto: the same fields set, references echoed, a ciphertext string of the length cipherd's would
 * have ({@code <NAME/vN:gcm>} plus the padded base64 of 12-byte IV, ciphertext and 16-byte tag) and
 * a plaintext of the length cipherd's would have, both taken from a cache. The runner checks the
 * sizes against cipherd's answers to the very same request bodies. Other methods stay
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
  private final Map<Integer, ByteString> plaintexts = new ConcurrentHashMap<>();
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

  /** A cached plaintext of the given length (zeros: no decryption happens here). */
  ByteString plaintext(int length) {
    return plaintexts.computeIfAbsent(length, n -> ByteString.copyFrom(new byte[n]));
  }

  /** The key name in a ciphertext's header {@code <NAME/vN:MODE>}. */
  static String keyNameOf(String ciphertext) {
    return ciphertext.substring(1, ciphertext.lastIndexOf("/v", ciphertext.indexOf('>')));
  }

  /** The key version in a ciphertext's header {@code <NAME/vN:MODE>}. */
  static int versionOf(String ciphertext) {
    int close = ciphertext.indexOf('>');
    int v = ciphertext.lastIndexOf("/v", close) + 2;
    return Integer.parseInt(ciphertext, v, ciphertext.indexOf(':', v), 10);
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
  public void decryptBatch(DecryptBatchRequest request, StreamObserver<DecryptBatchResponse> out) {
    count("DecryptBatch");
    DecryptBatchResponse.Builder response = DecryptBatchResponse.newBuilder();
    for (DecryptBatchItem item : request.getItemsList()) {
      response.addResults(DecryptBatchResult.newBuilder()
          .setReference(item.getReference())
          .setPlaintext(plaintext(plainLengthOf(item.getCiphertext())))
          .setKeyVersion(versionOf(item.getCiphertext())));
    }
    out.onNext(response.build());
    out.onCompleted();
  }

  /** One rewrapped item, as ReEncryptBatch and ReEncryptStream answer it; an empty key name means the
   * ciphertext's own key, as in cipherd. */
  ReEncryptBatchResult rewrapped(String reference, String keyName, String ciphertext) {
    String target = keyName.isEmpty() ? keyNameOf(ciphertext) : keyName;
    return ReEncryptBatchResult.newBuilder()
        .setReference(reference)
        .setCiphertext(ciphertext(target, REENCRYPT_VERSION, plainLengthOf(ciphertext)))
        .setKeyVersion(REENCRYPT_VERSION)
        .setSourceKeyVersion(SOURCE_VERSION)
        .build();
  }

  @Override
  public void reEncryptBatch(ReEncryptBatchRequest request, StreamObserver<ReEncryptBatchResponse> out) {
    count("ReEncryptBatch");
    ReEncryptBatchResponse.Builder response = ReEncryptBatchResponse.newBuilder();
    for (ReEncryptBatchItem item : request.getItemsList()) {
      response.addResults(rewrapped(item.getReference(), request.getKeyName(), item.getCiphertext()));
    }
    out.onNext(response.build());
    out.onCompleted();
  }

  /** One response per request message, in order, as it arrives; counted once per stream, as cipherd's
   * metrics count a call. */
  @Override
  public StreamObserver<ReEncryptStreamRequest> reEncryptStream(StreamObserver<ReEncryptStreamResponse> out) {
    count("ReEncryptStream");
    return new StreamObserver<>() {
      @Override
      public void onNext(ReEncryptStreamRequest request) {
        out.onNext(ReEncryptStreamResponse.newBuilder()
            .setResult(rewrapped(request.getReference(), request.getKeyName(), request.getCiphertext()))
            .build());
      }

      @Override
      public void onError(Throwable t) {
        // the client went away (h2load resets streams in flight at its end): nothing to answer
      }

      @Override
      public void onCompleted() {
        out.onCompleted();
      }
    };
  }
}
