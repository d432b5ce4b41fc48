package io.cipherd.server.keystore.kek;

import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.Provider;
import java.security.ProviderException;
import java.security.Security;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An AES key on a PKCS#11 token as the KEK, through the JDK's SunPKCS11 provider: AES-GCM done by
 * the token with the key it holds (make it sensitive and not extractable), a fresh 96-bit IV per
 * wrap, the associated data as GCM's AAD. The blob is {@code pkcs11:v1:<base64 of IV, ciphertext
 * and tag>}.
 *
 * <p>GCM rather than {@code CKM_AES_KEY_WRAP_PAD} (which SunPKCS11 offers as {@code
 * AES/KWP/NoPadding}): key wrap with padding has no associated data, and the binding of a blob to
 * its key name and version is what stops a blob moved elsewhere from unwrapping.
 *
 * <p>A token that fails during a wrap or unwrap (SunPKCS11's {@link ProviderException}: a lost
 * session, a device removed or in error) is the store's unavailable error, as a Vault outage is:
 * the call may succeed later. A blob that does not authenticate is {@link KekUnwrapException}.
 *
 * <p>It never logs out: PKCS#11 login is per process, not per provider, so one KEK closing would
 * log out every other user of the token in the JVM; the process ending ends the session.
 */
final class Pkcs11Kek implements KeyEncryptionKey {
  private static final Logger LOG = LoggerFactory.getLogger(Pkcs11Kek.class);
  private static final String PREFIX = "pkcs11:v1:";
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final Provider provider;
  private final SecretKey key;
  private final String id;

  private Pkcs11Kek(Provider provider, SecretKey key, String id) {
    this.provider = provider;
    this.key = key;
    this.id = id;
  }

  /**
   * Logs in to the token that {@code config} (SunPKCS11's configuration text: library, slot) names
   * with {@code pin} and finds the secret key labelled {@code keyLabel}; the PIN array is wiped.
   */
  static Pkcs11Kek open(String config, char[] pin, String keyLabel) {
    Provider base = Security.getProvider("SunPKCS11");
    if (base == null) {
      throw new IllegalStateException("this JDK has no SunPKCS11 provider");
    }
    Provider provider = base.configure("--" + config);
    try {
      KeyStore token = KeyStore.getInstance("PKCS11", provider);
      token.load(null, pin);
      Key found = token.getKey(keyLabel, null);
      if (!(found instanceof SecretKey secret) || !"AES".equalsIgnoreCase(found.getAlgorithm())) {
        throw new IllegalArgumentException(
            "the PKCS#11 token has no AES secret key labelled '" + keyLabel + "'");
      }
      return new Pkcs11Kek(provider, secret, "pkcs11:" + keyLabel);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "cannot open the PKCS#11 token (" + provider.getName() + "): " + e.getMessage(), e);
    } finally {
      Arrays.fill(pin, '\0');
    }
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String wrap(byte[] material, byte[] associatedData) {
    byte[] iv = NonceSource.bytes(IV_BYTES);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding", provider);
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(associatedData);
      byte[] sealed = cipher.doFinal(material);
      byte[] blob = new byte[IV_BYTES + sealed.length];
      System.arraycopy(iv, 0, blob, 0, IV_BYTES);
      System.arraycopy(sealed, 0, blob, IV_BYTES, sealed.length);
      return PREFIX + Base64.getEncoder().encodeToString(blob);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the PKCS#11 token did not wrap with " + id, e);
    } catch (ProviderException e) {
      throw tokenFailed("wrap", e);
    }
  }

  @Override
  public byte[] unwrap(String wrapped, byte[] associatedData) {
    byte[] blob;
    try {
      blob =
          wrapped.startsWith(PREFIX)
              ? Base64.getDecoder().decode(wrapped.substring(PREFIX.length()))
              : null;
    } catch (IllegalArgumentException e) {
      blob = null;
    }
    if (blob == null || blob.length < IV_BYTES + TAG_BITS / 8) {
      throw new KekUnwrapException("not a blob of " + id);
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding", provider);
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, blob, 0, IV_BYTES));
      cipher.updateAAD(associatedData);
      return cipher.doFinal(blob, IV_BYTES, blob.length - IV_BYTES);
    } catch (AEADBadTagException e) {
      throw new KekUnwrapException(id + " did not unwrap the blob");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the PKCS#11 token failed to unwrap with " + id, e);
    } catch (ProviderException e) {
      throw tokenFailed("unwrap", e);
    }
  }

  /** The caller's error says only that the store is unavailable; the log says which token. */
  private KeyStoreUnavailableException tokenFailed(String operation, ProviderException e) {
    LOG.warn("the PKCS#11 token of the key-encryption key {} failed to {}: {}", id, operation, e);
    return new KeyStoreUnavailableException("the key store is unavailable; retry later", e);
  }
}
