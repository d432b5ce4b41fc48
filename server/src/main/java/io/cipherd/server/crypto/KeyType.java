package io.cipherd.server.crypto;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * What a key version is: an encryption key's version in one {@link CipherMode}, an index key's
 * (HMAC-SHA-256), or a legacy key's. Its {@link #name} is how key stores record it and metrics
 * label it: the mode's header name, {@code hmac} or {@code legacy}; {@link #fromName} reads it
 * back. There is one instance per type, so types compare with {@code ==}.
 */
public final class KeyType {
  /** An index key's version: an HMAC-SHA-256 key for blind indexes; it never encrypts. */
  public static final KeyType INDEX = new KeyType(KeyKind.INDEX, "hmac", "HmacSHA256", Set.of(256));

  /**
   * A legacy key's version: decrypt-only, for ReEncrypt. Its cipher and key sizes are its {@code
   * legacy.LegacyFormat}'s, not this type's.
   */
  public static final KeyType LEGACY = new KeyType(KeyKind.LEGACY, "legacy", "", Set.of());

  private static final KeyType[] ENCRYPTION = new KeyType[CipherMode.values().length];
  private static final List<KeyType> VALUES;

  static {
    List<KeyType> values = new ArrayList<>();
    for (CipherMode mode : CipherMode.values()) {
      ENCRYPTION[mode.ordinal()] = new KeyType(mode);
      values.add(ENCRYPTION[mode.ordinal()]);
    }
    values.add(INDEX);
    values.add(LEGACY);
    VALUES = Collections.unmodifiableList(values);
  }

  private final KeyKind kind;
  private final CipherMode mode;
  private final String name;
  private final String keyAlgorithm;
  private final Set<Integer> keySizesBits;

  /** An encryption key's type: named and sized by its mode. */
  private KeyType(CipherMode mode) {
    this.kind = KeyKind.ENCRYPTION;
    this.mode = mode;
    this.name = mode.headerName();
    this.keyAlgorithm = mode.keyAlgorithm();
    this.keySizesBits = mode.keySizesBits();
  }

  /** The type of a kind without cipher modes. */
  private KeyType(KeyKind kind, String name, String keyAlgorithm, Set<Integer> keySizesBits) {
    this.kind = kind;
    this.mode = null;
    this.name = name;
    this.keyAlgorithm = keyAlgorithm;
    this.keySizesBits = keySizesBits;
  }

  /** The type of an encryption key's version in {@code mode}. */
  public static KeyType of(CipherMode mode) {
    return ENCRYPTION[mode.ordinal()];
  }

  /** Every type: one per cipher mode, then {@link #INDEX} and {@link #LEGACY}. */
  public static List<KeyType> values() {
    return VALUES;
  }

  /** The type named {@code name} (as stores record it), or null if there is none. */
  public static KeyType fromName(String name) {
    for (KeyType type : VALUES) {
      if (type.name.equals(name)) {
        return type;
      }
    }
    return null;
  }

  /** What keys of this type are for. */
  public KeyKind kind() {
    return kind;
  }

  /** The cipher mode of an encryption key's version; null for the other kinds. */
  public CipherMode mode() {
    return mode;
  }

  /** The type as stores record it and metrics label it, e.g. {@code gcm} or {@code hmac}. */
  public String name() {
    return name;
  }

  /** The JCE algorithm name of this type's keys; a legacy version's is its cipher's. */
  public String keyAlgorithm() {
    return keyAlgorithm;
  }

  /** The key sizes this type takes, in bits; none for legacy, whose cipher decides. */
  public Set<Integer> keySizesBits() {
    return keySizesBits;
  }

  /** Whether keys of {@code bits} bits are valid for this type. */
  public boolean acceptsKeySize(int bits) {
    return keySizesBits.contains(bits);
  }

  /** The key size when a caller gives none: 256 bits if the type takes them, else its only size. */
  public int defaultKeySizeBits() {
    return keySizesBits.contains(256) ? 256 : keySizesBits.iterator().next();
  }

  @Override
  public String toString() {
    return name;
  }
}
