package io.cipherd.server.crypto;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * What a key version is: an encryption key's version is its {@link CipherMode}, which says
 * everything about its algorithm; an index key's is {@link #INDEX} (HMAC-SHA-256) and a legacy
 * key's {@link #LEGACY}, a format-preserving key's {@link #FF1}. Its {@link #typeName} is how key
 * stores record it and metrics label it: the mode's header name, {@code hmac} or {@code legacy};
 * {@link #fromName} reads it back. Every type is an enum constant, so types compare with {@code
 * ==}.
 */
public sealed interface KeyType permits CipherMode, KeyType.Unmoded {
  /** An index key's version: an HMAC-SHA-256 key for blind indexes; it never encrypts. */
  KeyType INDEX = Unmoded.INDEX;

  /**
   * A legacy key's version: decrypt-only, for ReEncrypt. Its cipher and key sizes are its {@code
   * legacy.LegacyFormat}'s, not this type's.
   */
  KeyType LEGACY = Unmoded.LEGACY;

  /**
   * A format-preserving key's version: FF1 over AES, for EncryptFormatted and its siblings; its
   * values' shape is its {@code fpe.FpeFormat}.
   */
  KeyType FF1 = Unmoded.FF1;

  /** What keys of this type are for. */
  KeyKind kind();

  /** The type as stores record it and metrics label it, e.g. {@code gcm} or {@code hmac}. */
  String typeName();

  /** The JCE algorithm name of this type's keys; a legacy version's is its cipher's. */
  String keyAlgorithm();

  /** The key sizes this type takes, in bits; none for legacy, whose cipher decides. */
  Set<Integer> keySizesBits();

  /** The cipher mode of an encryption key's version; null for the other kinds. */
  default CipherMode mode() {
    return this instanceof CipherMode mode ? mode : null;
  }

  /** Whether keys of {@code bits} bits are valid for this type. */
  default boolean acceptsKeySize(int bits) {
    return keySizesBits().contains(bits);
  }

  /** The key size when a caller gives none: 256 bits if the type takes them, else its only size. */
  default int defaultKeySizeBits() {
    Set<Integer> sizes = keySizesBits();
    return sizes.contains(256) ? 256 : sizes.iterator().next();
  }

  /** Every type: one per cipher mode, then {@link #INDEX}, {@link #LEGACY} and {@link #FF1}. */
  static List<KeyType> values() {
    return Values.ALL;
  }

  /** The type named {@code name} (as stores record it), or null if there is none. */
  static KeyType fromName(String name) {
    for (KeyType type : Values.ALL) {
      if (type.typeName().equals(name)) {
        return type;
      }
    }
    return null;
  }

  /** The types of the kinds without cipher modes. */
  enum Unmoded implements KeyType {
    INDEX(KeyKind.INDEX, "hmac", "HmacSHA256", Set.of(256)),
    LEGACY(KeyKind.LEGACY, "legacy", "", Set.of()),
    FF1(KeyKind.FORMAT_PRESERVING, "ff1", "AES", Set.of(128, 192, 256));

    private final KeyKind kind;
    private final String typeName;
    private final String keyAlgorithm;
    private final Set<Integer> keySizesBits;

    Unmoded(KeyKind kind, String typeName, String keyAlgorithm, Set<Integer> keySizesBits) {
      this.kind = kind;
      this.typeName = typeName;
      this.keyAlgorithm = keyAlgorithm;
      this.keySizesBits = keySizesBits;
    }

    @Override
    public KeyKind kind() {
      return kind;
    }

    @Override
    public String typeName() {
      return typeName;
    }

    @Override
    public String keyAlgorithm() {
      return keyAlgorithm;
    }

    @Override
    public Set<Integer> keySizesBits() {
      return keySizesBits;
    }

    @Override
    public String toString() {
      return typeName;
    }
  }

  /**
   * The list of every type, built on first use: not a field of this interface, whose initialisation
   * runs inside {@link CipherMode}'s, before its constants exist.
   */
  final class Values {
    private static final List<KeyType> ALL = all();

    private Values() {}

    private static List<KeyType> all() {
      List<KeyType> all = new ArrayList<>(List.of(CipherMode.values()));
      all.add(INDEX);
      all.add(LEGACY);
      all.add(FF1);
      return Collections.unmodifiableList(all);
    }
  }
}
