package io.cipherd.server.keystore.kek;

/**
 * A key-encryption key (KEK): wraps the key material a key store keeps, so that what the store
 * holds is useless to whoever reads it without also being able to use this key, which lives
 * somewhere else (a Vault Transit key, a PKCS#11 token, a cloud KMS).
 *
 * <p>Every wrap is bound to associated data naming what the bytes are (a key's name and version, or
 * the audit key), so a wrapped blob copied to another key's or version's place does not unwrap
 * there. Implementations must authenticate: {@link #unwrap} of a blob changed by one bit, wrapped
 * by another KEK or under other associated data fails with {@link KekUnwrapException}.
 *
 * <p>A cloud KMS plugs in through {@link KeyEncryptionKeyFactory} (a {@link
 * java.util.ServiceLoader} service): its {@code wrap} calls the KMS's encrypt with the associated
 * data as its additional authenticated data (AWS KMS's encryption context, Cloud KMS's and Azure
 * Key Vault's AAD), and {@code unwrap} its decrypt.
 */
public interface KeyEncryptionKey extends AutoCloseable {
  /**
   * What wraps, stored beside each blob so a reader knows which KEK to ask (never secret), such as
   * {@code transit:transit/cipherd-kek}.
   */
  String id();

  /** {@code material} wrapped and bound to {@code associatedData}, as text the store keeps. */
  String wrap(byte[] material, byte[] associatedData);

  /**
   * The material {@code wrapped} holds; the caller wipes it after use. Throws {@link
   * KekUnwrapException} when the blob was not wrapped by this KEK under {@code associatedData}, and
   * the store's unavailable error when the KEK cannot be reached.
   */
  byte[] unwrap(String wrapped, byte[] associatedData);

  /**
   * Whether {@code wrapped} (a blob of this KEK) was wrapped by its newest key version, so that
   * {@code cipherd kek rewrap} leaves it alone. A KEK with versions (a rotated Transit key) answers
   * false for an older version's blob; one without versions keeps the default, true.
   */
  default boolean isCurrent(String wrapped) {
    return true;
  }

  /** Releases what the KEK holds (a token session); the default holds nothing. */
  @Override
  default void close() {}
}
