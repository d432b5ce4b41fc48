/**
 * STREAM over AES-256-GCM (proto/README.md, "Data-key file format") with a data key in hand: sealFile
 * turns plaintext into a file, openFile a file back into plaintext, chunk by chunk as the consumer pulls.
 * The client's file helpers get the data key from cipherd; tests inject one.
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from "node:crypto";
import { InvalidFileError } from "../errors.js";
import { ByteReader, type ByteSource } from "./byte-reader.js";
import { type FileHeader, MAX_CHUNK_INDEX, readHeader, TAG_LENGTH } from "./format.js";

const DATA_KEY_LENGTH = 32;

/** What a file holds besides its chunks, and how much plaintext went through; filled in as the file is read or written. */
export interface FileInfo {
  wrappedKey: string;
  chunkSize: number;
  plaintextBytes: number;
}

/** An AES-256 data key as a KeyObject, so the caller can overwrite its bytes at once. */
export function dataKeyObject(dataKey: Uint8Array): KeyObject {
  if (dataKey.length !== DATA_KEY_LENGTH) {
    throw new InvalidFileError("header_invalid", "the wrapped key does not hold a 256-bit data key");
  }
  return createSecretKey(dataKey);
}

function seal(key: KeyObject, header: FileHeader, index: number, last: boolean, plaintext: Uint8Array): Buffer {
  const cipher = createCipheriv("aes-256-gcm", key, header.nonce(index, last), { authTagLength: TAG_LENGTH });
  cipher.setAAD(header.fixed);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** The chunk's plaintext, or undefined when it does not verify as chunk `index` with this last flag. */
function open(key: KeyObject, header: FileHeader, index: number, last: boolean, sealed: Buffer): Buffer | undefined {
  const decipher = createDecipheriv("aes-256-gcm", key, header.nonce(index, last), { authTagLength: TAG_LENGTH });
  decipher.setAAD(header.fixed);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_LENGTH));
  const plaintext = decipher.update(sealed.subarray(0, sealed.length - TAG_LENGTH));
  try {
    decipher.final();
    return plaintext;
  } catch {
    plaintext.fill(0);
    return undefined;
  }
}

/**
 * The file of `source`'s bytes: the header, then each chunk once sealed. The key is taken at once, so
 * the caller may overwrite `dataKey` when this returns.
 */
export function sealFile(
  source: ByteSource,
  dataKey: Uint8Array,
  header: FileHeader,
  info?: FileInfo,
): AsyncGenerator<Buffer> {
  return sealChunks(new ByteReader(source), dataKeyObject(dataKey), header, info);
}

async function* sealChunks(
  reader: ByteReader,
  key: KeyObject,
  header: FileHeader,
  info?: FileInfo,
): AsyncGenerator<Buffer> {
  try {
    if (info !== undefined)
      Object.assign(info, { wrappedKey: header.wrappedKey, chunkSize: header.chunkSize, plaintextBytes: 0 });
    yield header.encode();
    for (let index = 0; ; index++) {
      const plaintext = await reader.read(header.chunkSize);
      // A full chunk is the last only when nothing follows it; an empty plaintext is one empty last chunk.
      const last = plaintext.length < header.chunkSize || (await reader.atEnd());
      if (index > MAX_CHUNK_INDEX)
        throw new RangeError("the plaintext needs more than 2^32 chunks: use a larger chunk size");
      const sealed = seal(key, header, index, last, plaintext);
      if (info !== undefined) info.plaintextBytes += plaintext.length;
      yield sealed;
      if (last) return;
    }
  } finally {
    await reader.close();
  }
}

/**
 * The plaintext of the file in `source`, one verified chunk at a time: `unwrap` turns the header's
 * wrapped key into the data key. Throws InvalidFileError ("header_invalid", "truncated" or
 * "chunk_invalid") at the first defect; what was yielded before is then not the whole plaintext.
 */
export async function* openFile(
  source: ByteSource,
  unwrap: (wrappedKey: string) => Promise<Uint8Array>,
  info?: FileInfo,
): AsyncGenerator<Buffer> {
  const reader = new ByteReader(source);
  try {
    const header = await readHeader(reader);
    if (info !== undefined)
      Object.assign(info, { wrappedKey: header.wrappedKey, chunkSize: header.chunkSize, plaintextBytes: 0 });
    const dataKey = await unwrap(header.wrappedKey);
    let key: KeyObject;
    try {
      key = dataKeyObject(dataKey);
    } finally {
      dataKey.fill(0);
    }
    for (let index = 0; ; index++) {
      const sealed = await reader.read(header.chunkSize + TAG_LENGTH);
      // The chunk that reaches the end of the file is the last; it must have been sealed as such.
      const last = sealed.length < header.chunkSize + TAG_LENGTH || (await reader.atEnd());
      if (sealed.length < TAG_LENGTH) {
        throw new InvalidFileError(
          "truncated",
          index === 0 && sealed.length === 0 ? "the file has no chunks" : `the file ends inside chunk ${index}`,
        );
      }
      if (index > MAX_CHUNK_INDEX) throw new InvalidFileError("chunk_invalid", "the file has more than 2^32 chunks");
      const plaintext = open(key, header, index, last, sealed);
      if (plaintext === undefined) throw chunkFailure(key, header, index, last, sealed);
      if (info !== undefined) info.plaintextBytes += plaintext.length;
      yield plaintext;
      if (last) return;
    }
  } finally {
    await reader.close();
  }
}

/** A full final chunk that verifies as not last means the file was cut at a chunk boundary. */
function chunkFailure(
  key: KeyObject,
  header: FileHeader,
  index: number,
  last: boolean,
  sealed: Buffer,
): InvalidFileError {
  const full = sealed.length === header.chunkSize + TAG_LENGTH;
  const cut = last && full && open(key, header, index, /* last= */ false, sealed)?.fill(0) !== undefined;
  return cut
    ? new InvalidFileError("truncated", `the file ends after chunk ${index}, which was not sealed as the last`)
    : new InvalidFileError("chunk_invalid", `chunk ${index} failed to authenticate`);
}
