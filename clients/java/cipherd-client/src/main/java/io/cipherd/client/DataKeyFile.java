package io.cipherd.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.function.Function;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The data-key file format v1 (proto/README.md, "Data-key file format"): a header (magic, chunk
 * size, nonce prefix, the wrapped data key), then STREAM (Hoang, Reyhanitabar, Rogaway, Vizár 2015)
 * over AES-256-GCM: each chunk sealed under nonce prefix ‖ uint32 index ‖ last flag, with magic,
 * chunk size and nonce prefix as associated data, so chunks cannot be moved, repeated, dropped at
 * the end or appended to. At most two chunks are held in memory: a chunk is sealed or opened once
 * the next read tells whether it is the last. No server calls here: the data key comes in as a
 * value (encrypt) or from a function (decrypt), so tests give the vectors' keys directly.
 */
final class DataKeyFile {
  static final byte[] MAGIC = "cipherd-file-v1\n".getBytes(StandardCharsets.US_ASCII);
  static final int NONCE_PREFIX_LENGTH = 7;
  static final int FIXED_LENGTH = MAGIC.length + 4 + NONCE_PREFIX_LENGTH;
  static final int MIN_CHUNK_SIZE = 16;
  static final int MAX_CHUNK_SIZE = 16 * 1024 * 1024;
  static final int DEFAULT_CHUNK_SIZE = 64 * 1024;
  static final int MAX_WRAPPED_LENGTH = 4096;
  private static final int TAG_LENGTH = 16;
  private static final int DATA_KEY_LENGTH = 32;
  private static final long MAX_CHUNKS = 1L << 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** An unwrapped data key and the key version that wrapped it. */
  record Unwrapped(byte[] dataKey, String keyName, int keyVersion) {}

  /** What unwraps a header's wrapped key. */
  interface Unwrapper {
    Unwrapped unwrap(String wrappedKey);
  }

  private DataKeyFile() {}

  static FileResult encrypt(DataKey key, InputStream source, OutputStream destination)
      throws IOException {
    byte[] prefix = new byte[NONCE_PREFIX_LENGTH];
    RANDOM.nextBytes(prefix);
    return encrypt(key, source, destination, DEFAULT_CHUNK_SIZE, prefix);
  }

  /** Only tests give the nonce prefix: two files with one data key and prefix break GCM. */
  static FileResult encrypt(
      DataKey key, InputStream source, OutputStream destination, int chunkSize, byte[] noncePrefix)
      throws IOException {
    byte[] dataKey =
        key.plaintextKey()
            .orElseThrow(
                () -> new IllegalArgumentException("encrypting a file needs the data key"));
    if (dataKey.length != DATA_KEY_LENGTH) {
      throw new IllegalArgumentException("the data key must be 256 bits");
    }
    if (chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
      throw new IllegalArgumentException(
          "the chunk size must be " + MIN_CHUNK_SIZE + " to " + MAX_CHUNK_SIZE + " bytes");
    }
    Envelope wrapping = Envelope.parse(key.wrappedKey());
    byte[] wrapped = key.wrappedKey().getBytes(StandardCharsets.US_ASCII);
    byte[] fixed = fixed(chunkSize, noncePrefix);
    destination.write(fixed);
    destination.write(new byte[] {(byte) (wrapped.length >>> 8), (byte) wrapped.length});
    destination.write(wrapped);
    byte[] current = source.readNBytes(chunkSize);
    long total = 0;
    for (long index = 0; index < MAX_CHUNKS; index++) {
      byte[] following = current.length == chunkSize ? source.readNBytes(chunkSize) : new byte[0];
      boolean last = following.length == 0;
      destination.write(seal(dataKey, noncePrefix, index, last, fixed, current));
      total += current.length;
      if (last) {
        return new FileResult(wrapping.keyName(), wrapping.keyVersion(), total);
      }
      current = following;
    }
    throw new IllegalArgumentException("the plaintext needs more than 2^32 chunks");
  }

  /** A file's header: what every chunk authenticates ({@code fixed}), and the wrapped data key. */
  private record Header(int chunkSize, byte[] noncePrefix, byte[] fixed, String wrappedKey) {}

  /** Reads the header at the stream's position, leaving it at the first chunk. */
  private static Header readHeader(InputStream source) throws IOException {
    byte[] fixed = source.readNBytes(FIXED_LENGTH + 2);
    if (fixed.length < FIXED_LENGTH + 2) {
      throw headerInvalid("it ends inside the header");
    }
    if (!Arrays.equals(fixed, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw headerInvalid("it does not start with the cipherd-file-v1 magic");
    }
    int chunkSize = ByteBuffer.wrap(fixed, MAGIC.length, 4).getInt();
    if (chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
      throw headerInvalid("the chunk size must be " + MIN_CHUNK_SIZE + " to " + MAX_CHUNK_SIZE);
    }
    byte[] noncePrefix = Arrays.copyOfRange(fixed, MAGIC.length + 4, FIXED_LENGTH);
    int wrappedLength = ((fixed[FIXED_LENGTH] & 0xff) << 8) | (fixed[FIXED_LENGTH + 1] & 0xff);
    if (wrappedLength < 1 || wrappedLength > MAX_WRAPPED_LENGTH) {
      throw headerInvalid("the wrapped key's length must be 1 to " + MAX_WRAPPED_LENGTH);
    }
    byte[] wrapped = source.readNBytes(wrappedLength);
    if (wrapped.length < wrappedLength) {
      throw headerInvalid("it ends inside the header");
    }
    String wrappedKey = new String(wrapped, StandardCharsets.US_ASCII);
    try {
      Envelope.parse(wrappedKey);
    } catch (InvalidCiphertextException e) {
      throw headerInvalid("the wrapped key is not a ciphertext (" + e.defect() + ")");
    }
    return new Header(chunkSize, noncePrefix, Arrays.copyOf(fixed, FIXED_LENGTH), wrappedKey);
  }

  /**
   * Copies a file with its wrapped key replaced by {@code rewrapKey}'s; the chunks are copied
   * untouched, since the wrapped key is not part of their associated data.
   */
  static Rewrapped rewrap(
      InputStream source, OutputStream destination, Function<String, Rewrapped> rewrapKey)
      throws IOException {
    Header header = readHeader(source);
    Rewrapped rewrapped = rewrapKey.apply(header.wrappedKey());
    byte[] wrapped = rewrapped.ciphertext().getBytes(StandardCharsets.US_ASCII);
    destination.write(header.fixed());
    destination.write(new byte[] {(byte) (wrapped.length >>> 8), (byte) wrapped.length});
    destination.write(wrapped);
    source.transferTo(destination);
    return rewrapped;
  }

  static FileResult decrypt(InputStream source, OutputStream destination, Unwrapper unwrapper)
      throws IOException {
    Header header = readHeader(source);
    int chunkSize = header.chunkSize();
    byte[] noncePrefix = header.noncePrefix();
    String wrappedKey = header.wrappedKey();
    Unwrapped unwrapped = unwrapper.unwrap(wrappedKey);
    byte[] dataKey = unwrapped.dataKey();
    if (dataKey.length != DATA_KEY_LENGTH) {
      throw headerInvalid("the wrapped key does not hold a 256-bit data key");
    }
    byte[] associated = header.fixed();
    int sealedSize = chunkSize + TAG_LENGTH;
    byte[] current = source.readNBytes(sealedSize);
    long total = 0;
    for (long index = 0; index < MAX_CHUNKS; index++) {
      byte[] following = current.length == sealedSize ? source.readNBytes(sealedSize) : new byte[0];
      boolean last = following.length == 0;
      byte[] plaintext = open(dataKey, noncePrefix, index, last, associated, current);
      destination.write(plaintext);
      total += plaintext.length;
      if (last) {
        return new FileResult(unwrapped.keyName(), unwrapped.keyVersion(), total);
      }
      current = following;
    }
    throw new InvalidFileException("chunk_invalid", "it has more than 2^32 chunks");
  }

  private static byte[] open(
      byte[] dataKey, byte[] prefix, long index, boolean last, byte[] associated, byte[] chunk) {
    if (last && chunk.length < TAG_LENGTH) {
      throw new InvalidFileException("truncated", "it ends before its last chunk");
    }
    try {
      return gcm(Cipher.DECRYPT_MODE, dataKey, prefix, index, last, associated, chunk);
    } catch (AEADBadTagException e) {
      // A final chunk that opens as a middle one: the chunks after it were cut off.
      if (last && opensAsMiddle(dataKey, prefix, index, associated, chunk)) {
        throw new InvalidFileException("truncated", "it ends before its last chunk");
      }
      throw new InvalidFileException("chunk_invalid", "chunk " + index + " failed to authenticate");
    }
  }

  private static boolean opensAsMiddle(
      byte[] dataKey, byte[] prefix, long index, byte[] associated, byte[] chunk) {
    try {
      gcm(Cipher.DECRYPT_MODE, dataKey, prefix, index, false, associated, chunk);
      return true;
    } catch (AEADBadTagException e) {
      return false;
    }
  }

  private static byte[] seal(
      byte[] dataKey, byte[] prefix, long index, boolean last, byte[] associated, byte[] chunk) {
    try {
      return gcm(Cipher.ENCRYPT_MODE, dataKey, prefix, index, last, associated, chunk);
    } catch (AEADBadTagException e) {
      throw new IllegalStateException("sealing does not check a tag", e);
    }
  }

  private static byte[] gcm(
      int direction,
      byte[] dataKey,
      byte[] prefix,
      long index,
      boolean last,
      byte[] associated,
      byte[] input)
      throws AEADBadTagException {
    byte[] nonce =
        ByteBuffer.allocate(12).put(prefix).putInt((int) index).put((byte) (last ? 1 : 0)).array();
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          direction,
          new SecretKeySpec(dataKey, "AES"),
          new GCMParameterSpec(TAG_LENGTH * 8, nonce));
      cipher.updateAAD(associated);
      return cipher.doFinal(input);
    } catch (AEADBadTagException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  private static byte[] fixed(int chunkSize, byte[] noncePrefix) {
    if (noncePrefix.length != NONCE_PREFIX_LENGTH) {
      throw new IllegalArgumentException("the nonce prefix must be 7 bytes");
    }
    return ByteBuffer.allocate(FIXED_LENGTH).put(MAGIC).putInt(chunkSize).put(noncePrefix).array();
  }

  private static InvalidFileException headerInvalid(String problem) {
    return new InvalidFileException("header_invalid", problem);
  }
}
