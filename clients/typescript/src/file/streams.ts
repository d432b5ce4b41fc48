/**
 * encryptStream and decryptStream: a data-key file from any byte source into a Writable, with the data
 * key from cipherd. Backpressure is the pipeline's: a chunk is read only when the destination takes more.
 */
import { randomBytes } from "node:crypto";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CancelledError } from "../errors.js";
import type { CallOptions, DataKey } from "../types.js";
import type { ByteSource } from "./byte-reader.js";
import { checkChunkSize, DEFAULT_CHUNK_SIZE, FileHeader, NONCE_PREFIX_LENGTH } from "./format.js";
import { type FileInfo, openFile, sealFile } from "./stream-cipher.js";

/** The calls the file helpers make: CipherdClient has them. */
export interface DataKeyService {
  generateDataKey(
    keyName: string,
    options: CallOptions & { keySizeBits?: 128 | 256; context?: Uint8Array },
  ): Promise<DataKey>;
  decrypt(ciphertext: string, options: CallOptions & { context?: Uint8Array }): Promise<Uint8Array>;
}

/**
 * Options of the file helpers: `context` is bound to the wrapped key (decrypting needs the same bytes);
 * `timeoutMs` bounds each call to cipherd, `signal` the whole operation.
 */
export interface FileOptions extends CallOptions {
  context?: Uint8Array;
}

export interface EncryptFileOptions extends FileOptions {
  /** Plaintext bytes per chunk, 16 to 16777216 (64 KiB by default); memory use is about two chunks. */
  chunkSize?: number;
}

export type { FileInfo };

/** Encrypts `source` into `destination` under a fresh data key wrapped by `keyName`; ends `destination`. */
export async function encryptStream(
  service: DataKeyService,
  keyName: string,
  source: ByteSource,
  destination: Writable,
  options: EncryptFileOptions = {},
): Promise<FileInfo> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  checkChunkSize(chunkSize); // before any call, so a bad chunk size costs no data key
  const info: FileInfo = { wrappedKey: "", chunkSize, plaintextBytes: 0 };
  async function* sealed(): AsyncGenerator<Buffer> {
    const dataKey = await service.generateDataKey(keyName, {
      ...callOptions(options),
      keySizeBits: 256,
      context: options.context,
    });
    const plaintextKey = dataKey.plaintextKey;
    if (plaintextKey === undefined) throw new Error("the server answered without a plaintext data key");
    const header = new FileHeader(chunkSize, randomBytes(NONCE_PREFIX_LENGTH), dataKey.wrappedKey);
    let chunks: AsyncGenerator<Buffer>;
    try {
      chunks = sealFile(source, plaintextKey, header, info);
    } finally {
      plaintextKey.fill(0);
    }
    yield* chunks;
  }
  await pipeChunks(sealed(), destination, options.signal);
  return info;
}

/**
 * Decrypts the file in `source` into `destination`, writing each chunk once it verifies; ends
 * `destination`. On InvalidFileError what was written is not the whole plaintext and must be discarded.
 */
export async function decryptStream(
  service: DataKeyService,
  source: ByteSource,
  destination: Writable,
  options: FileOptions = {},
): Promise<FileInfo> {
  const info: FileInfo = { wrappedKey: "", chunkSize: 0, plaintextBytes: 0 };
  const unwrap = (wrappedKey: string) =>
    service.decrypt(wrappedKey, { ...callOptions(options), context: options.context });
  await pipeChunks(openFile(source, unwrap, info), destination, options.signal);
  return info;
}

function callOptions(options: CallOptions): CallOptions {
  return { timeoutMs: options.timeoutMs, signal: options.signal };
}

/** Pipes `chunks` into `destination`; an abort is a CancelledError, as for every other call. */
export async function pipeChunks(
  chunks: AsyncGenerator<Buffer>,
  destination: Writable,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await pipeline(chunks, destination, signal === undefined ? {} : { signal });
  } catch (e) {
    if (signal?.aborted && !(e instanceof CancelledError)) throw new CancelledError("the file operation was aborted");
    throw e;
  }
}
