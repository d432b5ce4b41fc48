/**
 * The path forms of the file helpers. Each writes a temporary file beside its target and renames it over
 * the target only once everything was written (and, decrypting, every chunk verified), so a failure never
 * leaves a file that looks complete.
 */
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";
import type { CallOptions, Rewrapped } from "../types.js";
import { ByteReader } from "./byte-reader.js";
import { readHeader } from "./format.js";
import type { FileInfo } from "./stream-cipher.js";
import {
  type DataKeyService,
  decryptStream,
  type EncryptFileOptions,
  encryptStream,
  type FileOptions,
  pipeChunks,
} from "./streams.js";

/** The calls rewrapFileKey makes: CipherdClient has it. */
export interface RewrapService {
  reEncrypt(ciphertext: string, options: CallOptions & { context?: Uint8Array; keyName?: string }): Promise<Rewrapped>;
}

const ENCRYPTED_MODE = 0o666; // less the umask, as any new file
const PLAINTEXT_MODE = 0o600;

export function encryptFile(
  service: DataKeyService,
  keyName: string,
  input: string,
  output: string,
  options: EncryptFileOptions = {},
): Promise<FileInfo> {
  return replaceAtomically(output, ENCRYPTED_MODE, (out) =>
    encryptStream(service, keyName, createReadStream(input), out, options),
  );
}

/** Decrypts into `output`, created with mode 0600 since it holds plaintext. */
export function decryptFile(
  service: DataKeyService,
  input: string,
  output: string,
  options: FileOptions = {},
): Promise<FileInfo> {
  return replaceAtomically(output, PLAINTEXT_MODE, (out) =>
    decryptStream(service, createReadStream(input), out, options),
  );
}

/**
 * Rewraps the file's data key with ReEncrypt (to the key's current version, or into `keyName`) and
 * rewrites only the header; the chunks are copied as they are and the file keeps its mode.
 */
export async function rewrapFileKey(
  service: RewrapService,
  path: string,
  options: FileOptions & { keyName?: string } = {},
): Promise<Rewrapped> {
  const reader = new ByteReader(createReadStream(path));
  try {
    const header = await readHeader(reader);
    const rewrapped = await service.reEncrypt(header.wrappedKey, {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      context: options.context,
      keyName: options.keyName,
    });
    const newHeader = header.withWrappedKey(rewrapped.ciphertext);
    async function* file(): AsyncGenerator<Buffer> {
      yield newHeader.encode();
      yield* reader.rest();
    }
    const mode = (await stat(path)).mode & 0o777;
    await replaceAtomically(path, mode, (out) => pipeChunks(file(), out, options.signal), /* exactMode= */ true);
    return rewrapped;
  } finally {
    await reader.close();
  }
}

/** Runs `write` into a new temporary file beside `target`, synced on close, then renames it over `target`. */
async function replaceAtomically<T>(
  target: string,
  mode: number,
  write: (out: Writable) => Promise<T>,
  exactMode = false,
): Promise<T> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  // Opened here rather than by the stream, so the file exists (and can be removed) before anything fails.
  const handle = await open(temp, "wx", mode);
  try {
    if (exactMode) await handle.chmod(mode);
    const result = await write(handle.createWriteStream({ flush: true }));
    await rename(temp, target);
    await syncDirectory(dirname(target));
    return result;
  } catch (e) {
    await handle.close(); // already closed if the stream ran; closing twice is a no-op
    await rm(temp, { force: true });
    throw e;
  }
}

/** Makes the rename durable; best effort, as not every platform can open a directory. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The file itself is synced; only the rename might not survive a crash.
  }
}
