package io.cipherd.server.api;

import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CreateKeyResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.GetKeyResponse;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportKeyResponse;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.ListKeysRequest;
import io.cipherd.api.v1.ListKeysResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.RotateKeyResponse;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.api.v1.UpdateKeyPolicyResponse;
import io.cipherd.server.InvalidArgumentException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyRing;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import io.grpc.stub.StreamObserver;
import java.util.List;

/** The gRPC face of key administration. Every call may touch the key store, so all run on the blocking pool. */
public final class KeyAdminServiceImpl extends KeyAdminServiceGrpc.KeyAdminServiceImplBase {
  private static final int DEFAULT_PAGE_SIZE = 100;
  private static final int MAX_PAGE_SIZE = 1000;

  private final KeyRing keyRing;
  private final CallDispatcher dispatcher;
  private final Authorizer authorizer;

  KeyAdminServiceImpl(KeyRing keyRing, CallDispatcher dispatcher, Authorizer authorizer) {
    this.keyRing = keyRing;
    this.dispatcher = dispatcher;
    this.authorizer = authorizer;
  }

  @Override
  public void createKey(CreateKeyRequest request, StreamObserver<CreateKeyResponse> observer) {
    dispatcher.unary(false, observer, () -> CreateKeyResponse.newBuilder()
        .setKey(KeyProtos.toProto(keyRing.create(
            admin(request.getKeyName()),
            ModeProtos.fromProto(request.getMode()),
            request.getKeySizeBits(),
            request.getAllowUnauthenticated(),
            KeyProtos.fromProto(request.hasPolicy(), request.getPolicy()))))
        .build());
  }

  @Override
  public void getKey(GetKeyRequest request, StreamObserver<GetKeyResponse> observer) {
    dispatcher.unary(false, observer, () -> GetKeyResponse.newBuilder()
        .setKey(KeyProtos.toProto(keyRing.describe(inspect(request.getKeyName()))))
        .build());
  }

  @Override
  public void listKeys(ListKeysRequest request, StreamObserver<ListKeysResponse> observer) {
    dispatcher.unary(false, observer, () -> {
      if (request.getPageSize() < 0) {
        throw new InvalidArgumentException("page_size must not be negative");
      }
      int pageSize = request.getPageSize() == 0 ? DEFAULT_PAGE_SIZE : Math.min(request.getPageSize(), MAX_PAGE_SIZE);
      // The page token is the last key name of the previous page: names are unique and sorted.
      String after = request.getPageToken();
      List<KeyMetadata> page = keyRing.list(after, pageSize + 1);
      ListKeysResponse.Builder response = ListKeysResponse.newBuilder();
      // Keys the caller may not inspect are left out; the page token still moves past them.
      page.stream().limit(pageSize)
          .filter(key -> authorizer.allows(Operation.INSPECT, key.name()) || authorizer.allows(Operation.ADMIN, key.name()))
          .forEach(key -> response.addKeys(KeyProtos.toProto(key)));
      if (page.size() > pageSize) {
        response.setNextPageToken(page.get(pageSize - 1).name());
      }
      return response.build();
    });
  }

  @Override
  public void rotateKey(RotateKeyRequest request, StreamObserver<RotateKeyResponse> observer) {
    dispatcher.unary(false, observer, () -> RotateKeyResponse.newBuilder()
        .setKey(KeyProtos.toProto(keyRing.rotate(
            admin(request.getKeyName()),
            ModeProtos.fromProto(request.getMode()),
            request.getKeySizeBits(),
            request.getAllowUnauthenticated())))
        .build());
  }

  @Override
  public void updateKeyPolicy(UpdateKeyPolicyRequest request, StreamObserver<UpdateKeyPolicyResponse> observer) {
    dispatcher.unary(false, observer, () -> {
      admin(request.getKeyName());
      KeyPolicy policy = KeyProtos.fromProto(request.hasPolicy(), request.getPolicy());
      if (policy == null) {
        throw new InvalidArgumentException("policy is required");
      }
      return UpdateKeyPolicyResponse.newBuilder()
          .setKey(KeyProtos.toProto(keyRing.updatePolicy(request.getKeyName(), policy)))
          .build();
    });
  }

  @Override
  public void importKey(ImportKeyRequest request, StreamObserver<ImportKeyResponse> observer) {
    dispatcher.unary(false, observer, () -> {
      admin(request.getKeyName());
      byte[] material = request.getKeyMaterial().toByteArray();
      try {
        return ImportKeyResponse.newBuilder()
            .setKey(KeyProtos.toProto(keyRing.importVersion(
                request.getKeyName(),
                ModeProtos.fromProto(request.getMode()),
                material,
                request.getAllowUnauthenticated())))
            .build();
      } finally {
        java.util.Arrays.fill(material, (byte) 0);
      }
    });
  }

  /** Key administration needs {@code admin} on the key; returns the name for chaining. */
  private String admin(String keyName) {
    authorizer.check(Operation.ADMIN, keyName);
    return keyName;
  }

  /** Reading a key's metadata needs {@code inspect} or {@code admin} on it. */
  private String inspect(String keyName) {
    if (!authorizer.allows(Operation.ADMIN, keyName)) {
      authorizer.check(Operation.INSPECT, keyName);
    }
    return keyName;
  }
}
