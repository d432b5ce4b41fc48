package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.TokenCallers.as;
import static io.cipherd.server.api.TokenCallers.tokenHash;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.cipherd.api.v1.CancelKeyDeletionRequest;
import io.cipherd.api.v1.CancelKeyVersionDestructionRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DisableKeyRequest;
import io.cipherd.api.v1.EnableKeyRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyState;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyDeletionRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.AccessPolicyFile;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code destroy} operation is granted apart from {@code admin}: neither implies the other, and
 * every key-admin RPC asks the access policy before it does anything.
 */
class DestroyAccessTest {
  private static final String POLICY =
      """
      callers:
        keyadmin:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [admin]
        shredder:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [destroy]
        stranger:
          token_sha256: %s
          rules:
            - keys: [other]
              operations: [encrypt, decrypt, reencrypt, index, datakey, inspect, admin, import, export, destroy]
      """
          .formatted(tokenHash("keyadmin"), tokenHash("shredder"), tokenHash("stranger"));

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    AccessPolicy policy = AccessPolicyFile.parse("test", new StringReader(POLICY));
    cipherd = InProcessCipherd.start(dataDir, policy);
    admin("keyadmin").createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
    admin("keyadmin").rotateKey(RotateKeyRequest.newBuilder().setKeyName("orders").build());
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void admin_mayDisableAndEnable_butNoDestroyingCall() {
    KeyAdminServiceGrpc.KeyAdminServiceBlockingStub keyadmin = admin("keyadmin");
    for (ThrowingCallable destroying : destroyingCalls(keyadmin)) {
      Status refused = failsWith(Status.Code.PERMISSION_DENIED, destroying);
      assertThat(refused.getDescription())
          .isEqualTo("caller 'keyadmin' may not destroy with key 'orders'");
    }

    assertThat(
            keyadmin
                .disableKey(DisableKeyRequest.newBuilder().setKeyName("orders").build())
                .getKey()
                .getState())
        .isEqualTo(KeyState.KEY_STATE_DISABLED);
    assertThat(
            keyadmin
                .enableKey(EnableKeyRequest.newBuilder().setKeyName("orders").build())
                .getKey()
                .getState())
        .isEqualTo(KeyState.KEY_STATE_ENABLED);
  }

  @Test
  void destroy_maySchedulesAndCancel_butNotRotateDisableOrCreate() {
    KeyAdminServiceGrpc.KeyAdminServiceBlockingStub shredder = admin("shredder");
    Status rotate =
        failsWith(
            Status.Code.PERMISSION_DENIED,
            () -> shredder.rotateKey(RotateKeyRequest.newBuilder().setKeyName("orders").build()));
    assertThat(rotate.getDescription())
        .isEqualTo("caller 'shredder' may not admin with key 'orders'");
    failsWith(
        Status.Code.PERMISSION_DENIED,
        () -> shredder.disableKey(DisableKeyRequest.newBuilder().setKeyName("orders").build()));
    failsWith(
        Status.Code.PERMISSION_DENIED,
        () -> shredder.createKey(CreateKeyRequest.newBuilder().setKeyName("fresh").build()));

    assertThat(
            shredder
                .scheduleKeyVersionDestruction(
                    ScheduleKeyVersionDestructionRequest.newBuilder()
                        .setKeyName("orders")
                        .addVersions(1)
                        .build())
                .getKey()
                .getVersions(0)
                .getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED);
    assertThat(
            shredder
                .cancelKeyVersionDestruction(
                    CancelKeyVersionDestructionRequest.newBuilder()
                        .setKeyName("orders")
                        .addVersions(1)
                        .build())
                .getKey()
                .getVersions(0)
                .getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_ENABLED);
    assertThat(
            shredder
                .retireKeyVersions(
                    RetireKeyVersionsRequest.newBuilder()
                        .setKeyName("orders")
                        .setBelowVersion(2)
                        .setValidateOnly(true)
                        .build())
                .getRetiredVersionsList())
        .containsExactly(1);
  }

  /**
   * Every RPC that names a key, the lifecycle ones included, refuses a caller with no grant on it
   * before reading anything else of the request: none is left out of the access policy.
   */
  @Test
  void everyKeyAdminRpc_refusesACallerWithoutAGrantOnTheKey() {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
        "Bearer token-stranger");
    Channel stranger =
        ClientInterceptors.intercept(
            cipherd.channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    List<String> checked = new ArrayList<>();
    for (MethodDescriptor<?, ?> method :
        KeyAdminServiceGrpc.getServiceDescriptor().getMethods().stream()
            .map(m -> (MethodDescriptor<?, ?>) m)
            .toList()) {
      Message prototype =
          (Message)
              ((MethodDescriptor.PrototypeMarshaller<?>) method.getRequestMarshaller())
                  .getMessagePrototype();
      FieldDescriptor keyName = prototype.getDescriptorForType().findFieldByName("key_name");
      if (keyName == null) {
        continue; // ListKeys: it shows only the keys the caller may see
      }
      Message request = prototype.toBuilder().setField(keyName, "orders").build();
      Status refused =
          failsWith(Status.Code.PERMISSION_DENIED, () -> call(stranger, method, request));
      assertThat(refused.getDescription()).startsWith("caller 'stranger' may not");
      checked.add(method.getBareMethodName());
    }
    assertThat(checked)
        .contains(
            "DisableKey",
            "EnableKey",
            "ScheduleKeyVersionDestruction",
            "CancelKeyVersionDestruction",
            "ScheduleKeyDeletion",
            "CancelKeyDeletion",
            "RetireKeyVersions")
        .hasSize(KeyAdminServiceGrpc.getServiceDescriptor().getMethods().size() - 1)
        .contains("SetKeyExportable", "BackupKey", "RestoreKey");
  }

  @SuppressWarnings("unchecked")
  private static Object call(Channel channel, MethodDescriptor<?, ?> method, Message request) {
    return ClientCalls.blockingUnaryCall(
        channel, (MethodDescriptor<Message, Object>) method, CallOptions.DEFAULT, request);
  }

  private static List<ThrowingCallable> destroyingCalls(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub stub) {
    return List.of(
        () ->
            stub.scheduleKeyVersionDestruction(
                ScheduleKeyVersionDestructionRequest.newBuilder()
                    .setKeyName("orders")
                    .addVersions(1)
                    .build()),
        () ->
            stub.cancelKeyVersionDestruction(
                CancelKeyVersionDestructionRequest.newBuilder()
                    .setKeyName("orders")
                    .addVersions(1)
                    .build()),
        () ->
            stub.scheduleKeyDeletion(
                ScheduleKeyDeletionRequest.newBuilder().setKeyName("orders").build()),
        () ->
            stub.cancelKeyDeletion(
                CancelKeyDeletionRequest.newBuilder().setKeyName("orders").build()),
        () ->
            stub.retireKeyVersions(
                RetireKeyVersionsRequest.newBuilder()
                    .setKeyName("orders")
                    .setBelowVersion(2)
                    .setValidateOnly(true)
                    .build()));
  }

  private KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin(String caller) {
    return as(caller, cipherd.admin);
  }
}
