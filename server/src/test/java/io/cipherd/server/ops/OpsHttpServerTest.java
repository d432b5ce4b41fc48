package io.cipherd.server.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operators' HTTP port over a real socket. */
class OpsHttpServerTest {
  @TempDir Path dataDir;

  @Test
  void healthz_isOk_whileTheProcessRuns() throws Exception {
    try (CipherdServer server = TestServers.start(dataDir, false)) {
      HttpResponse<String> response = TestServers.get(server, "/healthz");
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("ok\n");
    }
  }

  @Test
  void readyz_isOkWhileServing_and503AfterMarkNotServing() throws Exception {
    try (CipherdServer server = TestServers.start(dataDir, false)) {
      assertThat(TestServers.get(server, "/readyz").statusCode()).isEqualTo(200);

      server.services().health().markNotServing();
      HttpResponse<String> draining = TestServers.get(server, "/readyz");
      assertThat(draining.statusCode()).isEqualTo(503);
      assertThat(draining.body()).contains("not serving");
      assertThat(TestServers.get(server, "/healthz").statusCode()).isEqualTo(200);

      server.services().health().markServing();
      assertThat(TestServers.get(server, "/readyz").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void readyz_is503_whileTheKeyStoreDoesNotAnswer() throws Exception {
    UnreachableKeyStore store = new UnreachableKeyStore();
    try (RunningOpsServer http = RunningOpsServer.start(store)) {
      assertThat(get(http, "/readyz").statusCode()).isEqualTo(200);

      store.down = true;
      HttpResponse<String> response = get(http, "/readyz");
      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(response.body()).contains("key store");
      assertThat(get(http, "/readyz?exclude=keystore").statusCode()).isEqualTo(200);
      http.services().health().markNotServing();
      assertThat(get(http, "/readyz?exclude=keystore").statusCode()).isEqualTo(503);
      http.services().health().markServing();

      store.down = false;
      assertThat(get(http, "/readyz").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void unknownPaths_are404_andTheHttpPortClosesWithTheServer() throws Exception {
    CipherdServer server = TestServers.start(dataDir, false);
    int port = server.httpPort();
    try {
      assertThat(TestServers.get(server, "/metrics/extra").statusCode()).isEqualTo(404);
      assertThat(TestServers.get(server, "/").statusCode()).isEqualTo(404);
    } finally {
      server.close();
    }
    Assertions.assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
        .isInstanceOf(ConnectException.class);
  }

  private static HttpResponse<String> get(RunningOpsServer http, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /**
   * An empty key store that refuses every call while {@code down}, as an unreachable Vault would.
   */
  private static final class UnreachableKeyStore implements KeyStore {
    volatile boolean down;

    @Override
    public List<String> listKeyNames() {
      check();
      return List.of();
    }

    @Override
    public Optional<KeyMetadata> readKey(String name) {
      check();
      return Optional.empty();
    }

    @Override
    public SecretKey readMaterial(String name, KeyVersionInfo version) {
      throw new UnsupportedOperationException();
    }

    @Override
    public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
      throw new UnsupportedOperationException();
    }

    @Override
    public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
      throw new UnsupportedOperationException();
    }

    @Override
    public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
      throw new UnsupportedOperationException();
    }

    @Override
    public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
      throw new UnsupportedOperationException();
    }

    @Override
    public KeyMetadata setExportable(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
      throw new UnsupportedOperationException();
    }

    private void check() {
      if (down) {
        throw new KeyStoreUnavailableException("store is down", null);
      }
    }
  }
}
