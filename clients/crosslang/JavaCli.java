// The Java client as a command for the cross-language test, run by the JDK's source launcher with the
// client's classpath (make test-crosslang builds it): `encrypt ADDR KEY CONTEXT` reads the plaintext
// from stdin and prints the ciphertext; `decrypt ADDR CONTEXT` reads the ciphertext from stdin and
// writes the plaintext; `inspect` prints the locally parsed header as "name version mode".
import io.cipherd.client.CipherdClient;
import io.cipherd.client.Envelope;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

public final class JavaCli {
  public static void main(String[] args) throws Exception {
    byte[] input = System.in.readAllBytes();
    String command = args[0];
    if (command.equals("inspect")) {
      Envelope e = Envelope.parse(new String(input, StandardCharsets.US_ASCII).strip());
      System.out.println(e.keyName() + " " + e.keyVersion() + " " + e.mode().headerName());
      return;
    }
    try (CipherdClient client =
        CipherdClient.builder(args[1]).defaultDeadline(Duration.ofSeconds(20)).build()) {
      switch (command) {
        case "encrypt" ->
            System.out.print(client.encrypt(args[2], input, args[3].getBytes(StandardCharsets.UTF_8)));
        case "decrypt" -> {
          String ciphertext = new String(input, StandardCharsets.US_ASCII).strip();
          System.out.write(client.decrypt(ciphertext, args[2].getBytes(StandardCharsets.UTF_8)));
          System.out.flush();
        }
        default -> throw new IllegalArgumentException("unknown command " + command);
      }
    }
  }
}
