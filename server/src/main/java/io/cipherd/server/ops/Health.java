package io.cipherd.server.ops;

import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.grpc.BindableService;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;

/**
 * The standard gRPC health service's statuses: the server and both cipherd services together, and
 * {@link #KEY_STORE} on its own (cached keys keep working while the store is away).
 */
public final class Health {
  /** Health service name that is NOT_SERVING while the key store cannot be reached. */
  public static final String KEY_STORE = "cipherd.KeyStore";

  private final HealthStatusManager manager = new HealthStatusManager();
  private volatile boolean serving;

  /**
   * The last key-store probe's result; true until a probe fails (and always for a store nobody
   * probes).
   */
  private volatile boolean keyStoreReachable = true;

  /** The health service to add to the server. */
  public BindableService service() {
    return manager.getHealthService();
  }

  /** Marks the server and both services SERVING. */
  public void markServing() {
    set(ServingStatus.SERVING);
  }

  /** Marks everything NOT_SERVING, so load balancers stop sending new calls before shutdown. */
  public void markNotServing() {
    set(ServingStatus.NOT_SERVING);
  }

  /** Whether the status is SERVING (between {@link #markServing} and {@link #markNotServing}). */
  public boolean isServing() {
    return serving;
  }

  /** Reports whether the key store answered its last probe. */
  public void reportKeyStore(boolean reachable) {
    keyStoreReachable = reachable;
    manager.setStatus(KEY_STORE, reachable ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
  }

  /**
   * Whether the key store answered its last probe, for the {@code cipherd_keystore_reachable}
   * gauge.
   */
  public boolean isKeyStoreReachable() {
    return keyStoreReachable;
  }

  /** NOT_SERVING for good: watchers are told, and later changes are ignored. */
  public void terminate() {
    serving = false;
    manager.enterTerminalState();
  }

  private void set(ServingStatus status) {
    serving = status == ServingStatus.SERVING;
    manager.setStatus("", status);
    manager.setStatus(CryptoServiceGrpc.SERVICE_NAME, status);
    manager.setStatus(KeyAdminServiceGrpc.SERVICE_NAME, status);
    manager.setStatus(AuditServiceGrpc.SERVICE_NAME, status);
    manager.setStatus(FormatPreservingServiceGrpc.SERVICE_NAME, status);
  }
}
