package example;

import io.cipherd.client.CipherdClient;
import io.cipherd.client.DecryptionFailedException;
import io.cipherd.client.Envelope;
import java.nio.charset.StandardCharsets;

/** Encrypts and decrypts with the key "demo" of the server at $CIPHERD_TARGET (127.0.0.1:50051). */
public final class Quickstart {
  public static void main(String[] args) {
    String target = System.getenv().getOrDefault("CIPHERD_TARGET", "127.0.0.1:50051");
    byte[] context = "user-42".getBytes(StandardCharsets.UTF_8);
    try (CipherdClient client = CipherdClient.builder(target).build()) {
      String ciphertext =
          client.encrypt("demo", "hello, cipherd".getBytes(StandardCharsets.UTF_8), context);
      String plaintext = new String(client.decrypt(ciphertext, context), StandardCharsets.UTF_8);
      System.out.println(Envelope.parse(ciphertext).header() + " decrypts to \"" + plaintext + "\"");
      try {
        client.decrypt(ciphertext, "user-43".getBytes(StandardCharsets.UTF_8));
      } catch (DecryptionFailedException e) {
        System.out.println("another context: " + e.reason());
      }
    }
  }
}
