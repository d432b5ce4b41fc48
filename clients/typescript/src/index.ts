/** @cipherd/client: a promise-based client of cipherd, its local ciphertext parser and typed errors. */
export { CipherdClient, type KeyOptions } from "./client.js";
export { Envelope, KEY_MODES, type KeyMode, MODES, type Mode, parseCiphertext } from "./envelope.js";
export * from "./errors.js";
export type { StreamItems } from "./stream.js";
export * from "./types.js";
export type { Key, KeyPolicy, KeyVersion } from "./gen/cipherd/v1/keys.js";
