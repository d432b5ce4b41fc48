package io.cipherd.server.keystore.vault;

import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.KeyEncryptionKey;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Vault Transit key as the KEK: {@code <mount>/encrypt/<key>} and {@code <mount>/decrypt/<key>}
 * with the associated data as Transit's {@code associated_data} (an AEAD key: aes256-gcm96,
 * aes128-gcm96 or chacha20-poly1305), through the key store's own session, so with its token,
 * timeouts, retries and circuit. The blob is Transit's {@code vault:vN:...} ciphertext; a rotated
 * Transit key still unwraps its older blobs (down to its {@code min_decryption_version}).
 *
 * <p>The token needs {@code update} on the two paths and nothing else: without {@code create},
 * Transit's encrypt does not make a missing key, and the round trip at start-up fails instead.
 */
final class TransitKek implements KeyEncryptionKey {
  private static final Base64.Encoder BASE64 = Base64.getEncoder();

  private final KvClient vault;
  private final String mount;
  private final String key;

  TransitKek(KvClient vault, String mount, String key) {
    this.vault = vault;
    this.mount = trimSlashes(mount);
    this.key = key;
  }

  @Override
  public String id() {
    return "transit:" + mount + "/" + key;
  }

  @Override
  public String wrap(byte[] material, byte[] associatedData) {
    String path = mount + "/encrypt/" + key;
    JsonObject answer =
        vault
            .call("wrap key material with", path, body("plaintext", material, associatedData))
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "Vault Transit refused to encrypt with "
                            + id()
                            + " (is it an AEAD key: aes256-gcm96, aes128-gcm96 or"
                            + " chacha20-poly1305?)"));
    return string(answer, "ciphertext", path);
  }

  @Override
  public byte[] unwrap(String wrapped, byte[] associatedData) {
    String path = mount + "/decrypt/" + key;
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("ciphertext", wrapped);
    body.put("associated_data", BASE64.encodeToString(associatedData));
    JsonObject answer =
        vault
            .call("unwrap key material with", path, body)
            .orElseThrow(
                () ->
                    new KekUnwrapException(
                        "Vault Transit key " + id() + " did not decrypt the wrapped material"));
    try {
      return Base64.getDecoder().decode(string(answer, "plaintext", path));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("Vault Transit answered " + path + " with bad base64", e);
    }
  }

  private static Map<String, Object> body(String field, byte[] bytes, byte[] associatedData) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(field, BASE64.encodeToString(bytes));
    body.put("associated_data", BASE64.encodeToString(associatedData));
    return body;
  }

  private static String string(JsonObject answer, String field, String path) {
    JsonValue value = answer.get(field);
    if (value == null || !value.isString()) {
      throw new IllegalStateException("Vault Transit's answer to " + path + " has no " + field);
    }
    return value.asString();
  }

  private static String trimSlashes(String path) {
    String trimmed = path.strip();
    while (trimmed.startsWith("/")) {
      trimmed = trimmed.substring(1);
    }
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed;
  }
}
