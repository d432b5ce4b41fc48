/** @cipherd/client: a promise-based client of cipherd, its local ciphertext parser and typed errors. */
export { CipherdClient, type KeyOptions } from "./client.js";
export { Envelope, KEY_MODES, type KeyMode, MODES, type Mode, parseCiphertext } from "./envelope.js";
export * from "./errors.js";
export type { StreamItems } from "./stream.js";
export type { ByteSource } from "./file/byte-reader.js";
export { DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from "./file/format.js";
export type { FileInfo } from "./file/stream-cipher.js";
export type { EncryptFileOptions, FileOptions } from "./file/streams.js";
export * from "./types.js";
export type { Key, KeyPolicy, KeyVersion } from "./gen/cipherd/v1/keys.js";
