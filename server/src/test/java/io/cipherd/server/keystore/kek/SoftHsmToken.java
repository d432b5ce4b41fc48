package io.cipherd.server.keystore.kek;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Provider;
import java.security.Security;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.crypto.KeyGenerator;

/**
 * A SoftHSM2 token for the tests of this JVM, in a temporary directory: the module from {@code
 * .ci/install-softhsm} (Debian's softhsm2), {@code SOFTHSM2_CONF} set by surefire to a file under
 * {@code target/} that this writes before the module is loaded, a token initialised with {@code
 * softhsm2-util}, and an AES-256 key labelled {@code cipherd-kek} generated on it. Without SoftHSM2
 * and outside CI the tests are skipped; in CI the script installs it.
 */
public final class SoftHsmToken {
  public static final String KEY_LABEL = "cipherd-kek";
  static final String PIN = "cipherd-test-pin";

  private static SoftHsmToken token;

  private final String module;
  private final long slot;
  private final Path pinFile;

  private SoftHsmToken(String module, long slot, Path pinFile) {
    this.module = module;
    this.slot = slot;
    this.pinFile = pinFile;
  }

  /** The JVM's token, made on first use. */
  public static synchronized SoftHsmToken get() throws Exception {
    if (token == null) {
      token = create();
    }
    return token;
  }

  /** The options of {@code --kek=pkcs11} for this token's key. */
  public Map<String, String> options() {
    return Map.of(
        "library",
        module,
        "slot",
        Long.toString(slot),
        "key-label",
        KEY_LABEL,
        "pin-file",
        pinFile.toString());
  }

  private static SoftHsmToken create() throws Exception {
    String conf = System.getenv("SOFTHSM2_CONF");
    assumeTrue(conf != null, "SOFTHSM2_CONF is not set (surefire sets it; run through Maven)");
    boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
    Process install =
        new ProcessBuilder(Path.of("..", ".ci", "install-softhsm").toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String module =
        new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!install.waitFor(300, TimeUnit.SECONDS) || install.exitValue() != 0) {
      if (ci) {
        throw new IllegalStateException(".ci/install-softhsm failed");
      }
      assumeTrue(false, "no SoftHSM2 (.ci/install-softhsm as root installs it)");
    }
    Path tokens = Files.createTempDirectory("cipherd-softhsm");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(tokens)));
    Path confFile = Path.of(conf);
    Files.createDirectories(confFile.getParent());
    Files.writeString(
        confFile,
        "directories.tokendir = " + tokens + "\nobjectstore.backend = file\nlog.level = ERROR\n");
    Process init =
        new ProcessBuilder(
                "softhsm2-util",
                "--init-token",
                "--free",
                "--label",
                "cipherd-test",
                "--so-pin",
                "cipherd-test-so",
                "--pin",
                PIN)
            .redirectErrorStream(true)
            .start();
    String said = new String(init.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!init.waitFor(60, TimeUnit.SECONDS) || init.exitValue() != 0) {
      throw new IllegalStateException("softhsm2-util --init-token failed: " + said);
    }
    Matcher slot = Pattern.compile("slot (\\d+)").matcher(said);
    if (!slot.find()) {
      throw new IllegalStateException("softhsm2-util named no slot: " + said);
    }
    long slotId = Long.parseLong(slot.group(1));
    Provider provider =
        Security.getProvider("SunPKCS11")
            .configure("--name = softhsm-setup\nlibrary = " + module + "\nslot = " + slotId + "\n");
    KeyStore store = KeyStore.getInstance("PKCS11", provider);
    store.load(null, PIN.toCharArray());
    KeyGenerator generator = KeyGenerator.getInstance("AES", provider);
    generator.init(256);
    store.setEntry(
        KEY_LABEL, new KeyStore.SecretKeyEntry(generator.generateKey()), /* protParam= */ null);
    Path pinFile = tokens.resolve("pin");
    Files.writeString(pinFile, PIN + "\n");
    System.out.println("SoftHSM2 token in slot " + slotId + " (" + module + ")");
    return new SoftHsmToken(module, slotId, pinFile);
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A temporary directory left behind is the only cost.
    }
  }
}
