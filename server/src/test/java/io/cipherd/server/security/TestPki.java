package io.cipherd.server.security;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A throwaway certificate authority made at test time with the JDK's {@code keytool}: it issues PEM
 * certificates and PKCS#8 keys for servers and clients, the files cipherd's TLS options take.
 */
public final class TestPki {
  private static final String PASSWORD = "test-pki-password";

  private final Path dir;
  private final Path caStore;

  /** The CA certificate, PEM. */
  public final Path caCert;

  private TestPki(Path dir) {
    this.dir = dir;
    this.caStore = dir.resolve("ca.p12");
    this.caCert = dir.resolve("ca.pem");
  }

  /** A new CA in {@code dir}. */
  public static TestPki create(Path dir) throws Exception {
    TestPki pki = new TestPki(dir);
    keytool(
        null,
        "-genkeypair",
        "-alias",
        "ca",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=cipherd test CA " + dir.getFileName(),
        "-ext",
        "bc:c",
        "-validity",
        "2",
        "-keystore",
        pki.caStore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD);
    Files.writeString(
        pki.caCert,
        keytool(
            null,
            "-exportcert",
            "-rfc",
            "-alias",
            "ca",
            "-keystore",
            pki.caStore.toString(),
            "-storepass",
            PASSWORD));
    return pki;
  }

  /**
   * A certificate and key issued by this CA, written as {@code <name>.pem} and {@code <name>.key}.
   */
  public Issued issue(String name, String commonName, String subjectAltNames) throws Exception {
    Path store = dir.resolve(name + ".p12");
    Files.deleteIfExists(store);
    keytool(
        null,
        "-genkeypair",
        "-alias",
        name,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + commonName,
        "-validity",
        "2",
        "-keystore",
        store.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD);
    String request =
        keytool(
            null,
            "-certreq",
            "-alias",
            name,
            "-keystore",
            store.toString(),
            "-storepass",
            PASSWORD);
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-validity",
                "2",
                "-keystore",
                caStore.toString(),
                "-storepass",
                PASSWORD));
    if (subjectAltNames != null) {
      gencert.addAll(List.of("-ext", "SAN=" + subjectAltNames));
    }
    String leaf = keytool(request, gencert.toArray(String[]::new));
    Path cert = dir.resolve(name + ".pem");
    Path key = dir.resolve(name + ".key");
    Files.writeString(cert, leaf + Files.readString(caCert));
    Files.writeString(key, pkcs8Pem(store, name));
    return new Issued(cert, key);
  }

  /** Client credentials that trust this CA's servers and present no certificate. */
  public ChannelCredentials credentials() throws IOException {
    return TlsChannelCredentials.newBuilder().trustManager(caCert.toFile()).build();
  }

  /**
   * Client credentials that trust this CA's servers and present {@code client} (which this CA or
   * another issued).
   */
  public ChannelCredentials credentials(Issued client) throws IOException {
    return TlsChannelCredentials.newBuilder()
        .trustManager(caCert.toFile())
        .keyManager(client.cert().toFile(), client.key().toFile())
        .build();
  }

  /** A channel to {@code localhost:port} presenting {@code client}, trusting this CA. */
  public ManagedChannel channel(int port, Issued client) throws IOException {
    return Grpc.newChannelBuilderForAddress("localhost", port, credentials(client)).build();
  }

  /** A PEM certificate chain and its PKCS#8 private key. */
  public record Issued(Path cert, Path key) {}

  private static String pkcs8Pem(Path store, String alias) throws Exception {
    KeyStore p12 = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      p12.load(in, PASSWORD.toCharArray());
    }
    PrivateKey key = (PrivateKey) p12.getKey(alias, PASSWORD.toCharArray());
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(key.getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }

  private static String keytool(String stdin, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    // keytool is a short-lived JVM: skip the optimising JIT, it only costs start-up time here.
    command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
    if (stdin != null) {
      process.getOutputStream().write(stdin.getBytes(StandardCharsets.US_ASCII));
    }
    process.getOutputStream().close();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    process.getInputStream().transferTo(out);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IOException("keytool " + args[0] + " failed: " + err);
    }
    return out.toString(StandardCharsets.US_ASCII);
  }
}
