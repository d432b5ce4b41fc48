/**
 * The header of the data-key file format (proto/README.md, "Data-key file format") and the nonce of
 * each chunk: the only place the TypeScript client knows their layout.
 */
import { InvalidFileError } from "../errors.js";
import type { ByteReader } from "./byte-reader.js";

const MAGIC = Buffer.from("cipherd-file-v1\n", "ascii");
/** magic ‖ chunk-size ‖ nonce-prefix: the associated data of every chunk. */
const FIXED_LENGTH = 27;
export const NONCE_PREFIX_LENGTH = 7;
const MAX_WRAPPED_LENGTH = 4096;
// The wrapped key is a ciphertext, which is printable ASCII without spaces.
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

export const TAG_LENGTH = 16;
export const MIN_CHUNK_SIZE = 16;
export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
export const DEFAULT_CHUNK_SIZE = 64 * 1024;
/** Chunk indexes are a uint32 in the nonce. */
export const MAX_CHUNK_INDEX = 0xffff_ffff;

/** Throws RangeError unless `chunkSize` is a whole number of bytes from 16 to 16777216. */
export function checkChunkSize(chunkSize: number): void {
  if (!Number.isInteger(chunkSize) || chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
    throw new RangeError(`the chunk size must be ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE} bytes`);
  }
}

/** A file's header: its chunk size, its random nonce prefix and the wrapped data key. */
export class FileHeader {
  /** The 27 bytes every chunk authenticates; the wrapped key is left out so it can be rewrapped. */
  readonly fixed: Buffer;

  constructor(
    readonly chunkSize: number,
    noncePrefix: Uint8Array,
    readonly wrappedKey: string,
  ) {
    checkChunkSize(chunkSize);
    if (noncePrefix.length !== NONCE_PREFIX_LENGTH)
      throw new RangeError(`the nonce prefix must be ${NONCE_PREFIX_LENGTH} bytes`);
    if (wrappedKey.length > MAX_WRAPPED_LENGTH || !PRINTABLE_ASCII.test(wrappedKey)) {
      throw new RangeError(`the wrapped key must be 1 to ${MAX_WRAPPED_LENGTH} printable ASCII characters`);
    }
    this.fixed = Buffer.alloc(FIXED_LENGTH);
    MAGIC.copy(this.fixed, 0);
    this.fixed.writeUInt32BE(chunkSize, MAGIC.length);
    this.fixed.set(noncePrefix, MAGIC.length + 4);
  }

  /** The file's random nonce prefix (a copy). */
  get noncePrefix(): Buffer {
    return Buffer.from(this.fixed.subarray(MAGIC.length + 4));
  }

  /** The header as written: fixed ‖ uint16 wrapped-len ‖ wrapped. */
  encode(): Buffer {
    const wrapped = Buffer.from(this.wrappedKey, "ascii");
    const length = Buffer.alloc(2);
    length.writeUInt16BE(wrapped.length);
    return Buffer.concat([this.fixed, length, wrapped]);
  }

  /** The same file with another wrapped key, as after a rewrap: the chunks still verify. */
  withWrappedKey(wrappedKey: string): FileHeader {
    return new FileHeader(this.chunkSize, this.noncePrefix, wrappedKey);
  }

  /** nonce-prefix ‖ uint32 index ‖ last flag. */
  nonce(index: number, last: boolean): Buffer {
    const nonce = Buffer.alloc(NONCE_PREFIX_LENGTH + 5);
    this.fixed.copy(nonce, 0, MAGIC.length + 4);
    nonce.writeUInt32BE(index, NONCE_PREFIX_LENGTH);
    nonce[NONCE_PREFIX_LENGTH + 4] = last ? 1 : 0;
    return nonce;
  }
}

function invalid(problem: string): InvalidFileError {
  return new InvalidFileError("header_invalid", `invalid file header: ${problem}`);
}

/** Reads and checks a header, leaving `reader` at the first chunk; throws InvalidFileError "header_invalid". */
export async function readHeader(reader: ByteReader): Promise<FileHeader> {
  const fixed = await reader.read(FIXED_LENGTH);
  if (fixed.length < FIXED_LENGTH) throw invalid("the file is shorter than a header");
  if (!fixed.subarray(0, MAGIC.length).equals(MAGIC)) throw invalid("it does not start with cipherd-file-v1");
  const chunkSize = fixed.readUInt32BE(MAGIC.length);
  if (chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
    throw invalid(`the chunk size must be ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE} bytes`);
  }
  const length = await reader.read(2);
  if (length.length < 2) throw invalid("it ends before the wrapped key's length");
  const wrappedLength = length.readUInt16BE(0);
  if (wrappedLength === 0 || wrappedLength > MAX_WRAPPED_LENGTH) {
    throw invalid(`the wrapped key must be 1 to ${MAX_WRAPPED_LENGTH} bytes`);
  }
  const wrapped = await reader.read(wrappedLength);
  if (wrapped.length < wrappedLength) throw invalid("it ends inside the wrapped key");
  const wrappedKey = wrapped.toString("latin1");
  if (!PRINTABLE_ASCII.test(wrappedKey)) throw invalid("the wrapped key is not printable ASCII");
  return new FileHeader(chunkSize, fixed.subarray(MAGIC.length + 4, FIXED_LENGTH), wrappedKey);
}
