// The Java client as a command for the cross-language test, run by the JDK's source launcher with the
// client's classpath (make test-crosslang builds it): `encrypt ADDR KEY CONTEXT [SUBJECT]` reads the
// plaintext from stdin and prints the ciphertext (sealed under SUBJECT's key when given); `decrypt
// ADDR CONTEXT` reads the ciphertext from stdin and writes the plaintext, or, when its subject was
// erased, prints "subject erased at TIME" on stderr and exits 3 (SubjectErasedException);
// `erase ADDR KEY SUBJECT` erases a subject and prints the outcome; `inspect` prints the locally
// parsed header as "name version mode subject_bound payload_bytes"; `fpe-encrypt ADDR KEY CONTEXT`
// reads a value from stdin and prints "VALUE<TAB>KEY_VERSION" of its format-preserving ciphertext,
// `fpe-decrypt ADDR KEY CONTEXT` reads such a line and writes the plaintext.
import io.cipherd.client.CipherdClient;
import io.cipherd.client.Envelope;
import io.cipherd.client.FormattedValue;
import io.cipherd.client.Subject;
import io.cipherd.client.SubjectErasedException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

public final class JavaCli {
  public static void main(String[] args) throws Exception {
    byte[] input = System.in.readAllBytes();
    String command = args[0];
    if (command.equals("inspect")) {
      Envelope e = Envelope.parse(new String(input, StandardCharsets.US_ASCII).strip());
      System.out.println(
          e.keyName()
              + " "
              + e.keyVersion()
              + " "
              + e.mode().headerName()
              + " "
              + e.subjectBound()
              + " "
              + e.payload().length);
      return;
    }
    try (CipherdClient client =
        CipherdClient.builder(args[1]).defaultDeadline(Duration.ofSeconds(20)).build()) {
      switch (command) {
        case "encrypt" -> {
          byte[] context = args[3].getBytes(StandardCharsets.UTF_8);
          Subject subject = args.length > 4 ? Subject.of(args[4]) : null;
          System.out.print(client.encrypt(args[2], input, context, subject));
        }
        case "decrypt" -> {
          String ciphertext = new String(input, StandardCharsets.US_ASCII).strip();
          try {
            System.out.write(client.decrypt(ciphertext, args[2].getBytes(StandardCharsets.UTF_8)));
          } catch (SubjectErasedException e) {
            System.err.println("subject erased at " + e.eraseTime().orElseThrow());
            System.exit(3);
          }
          System.out.flush();
        }
        case "fpe-encrypt" -> {
          FormattedValue ct =
              client
                  .formatted()
                  .encrypt(
                      args[2],
                      new String(input, StandardCharsets.UTF_8),
                      args[3].getBytes(StandardCharsets.UTF_8));
          System.out.print(ct.value() + "\t" + ct.keyVersion());
        }
        case "fpe-decrypt" -> {
          String[] line = new String(input, StandardCharsets.UTF_8).strip().split("\t");
          FormattedValue ct = new FormattedValue(line[0], Integer.parseInt(line[1]));
          System.out.print(
              client.formatted().decrypt(args[2], ct, args[3].getBytes(StandardCharsets.UTF_8)));
        }
        case "erase" -> System.out.println(client.subjects().erase(args[2], args[3]).outcome());
        default -> throw new IllegalArgumentException("unknown command " + command);
      }
    }
  }
}
