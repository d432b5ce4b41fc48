package io.cipherd.server.keystore.vault;

import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.KeyEncryptionKey;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Vault Transit key as the KEK: {@code <mount>/encrypt/<key>} and {@code <mount>/decrypt/<key>}
 * with the associated data as Transit's {@code associated_data} (an AEAD key: aes256-gcm96,
 * aes128-gcm96 or chacha20-poly1305), through the key store's own session, so with its token,
 * timeouts, retries and circuit. The blob is Transit's {@code vault:vN:...} ciphertext; a rotated
 * Transit key still unwraps its older blobs (down to its {@code min_decryption_version}).
 *
 * <p>The newest Transit version is learnt from what encrypt answers ({@code vault:vN:}), so a blob
 * of an older version is known as such ({@link #isCurrent}) once this KEK has wrapped something:
 * the store's start-up round trip does, and needs no read grant on the key's configuration.
 *
 * <p>The token needs {@code update} on the two paths and nothing else: without {@code create},
 * Transit's encrypt does not make a missing key, and the round trip at start-up fails instead.
 */
final class TransitKek implements KeyEncryptionKey {
  private static final Base64.Encoder BASE64 = Base64.getEncoder();
  private static final Pattern VERSION = Pattern.compile("^vault:v([0-9]{1,9}):");

  private final KvClient vault;
  private final String mount;
  private final String key;

  /** The newest Transit key version an encrypt answered with; 0 before the first wrap. */
  private final AtomicInteger newest = new AtomicInteger();

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
    String wrapped = string(answer, "ciphertext", path);
    newest.accumulateAndGet(version(wrapped), Math::max);
    return wrapped;
  }

  @Override
  public boolean isCurrent(String wrapped) {
    int version = version(wrapped);
    return version > 0 && version >= newest.get();
  }

  /** The Transit key version of a {@code vault:vN:...} blob; 0 if it is not one. */
  static int version(String wrapped) {
    Matcher m = VERSION.matcher(wrapped);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
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
