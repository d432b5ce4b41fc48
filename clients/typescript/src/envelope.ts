/**
 * The ciphertext format "<NAME/vVERSION:MODE>BASE64", and the subject-bound "<NAME/s:MODE>BASE64"
 * (proto/README.md), parsed and formatted locally.
 * This is the only place the TypeScript client knows the format: route a ciphertext by its key or
 * check its version without a call to the server.
 */
import { InvalidCiphertextError } from "./errors.js";

/** Header modes in the order of the proto enum from MODE_GCM (convert.ts relies on it). */
export const MODES = ["gcm", "chacha", "cbc", "ctr", "cfb", "ofb", "ecb", "xgcm", "siv"] as const;
/** The cipher mode of a key version that encrypts, by its name in a ciphertext header. */
export type Mode = (typeof MODES)[number];

/**
 * Every mode a key version can have: the header modes, then "hmac" for index keys, which never encrypt, and "ff1"
 * for format-preserving keys, whose values carry no header.
 */
export const KEY_MODES = [...MODES, "hmac", "ff1"] as const;
/** The mode of a key version: a header Mode, "hmac" (an index key, for computeIndex only) or "ff1" (encryptFormatted). */
export type KeyMode = (typeof KEY_MODES)[number];

const KEY_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const VERSION = /^v[1-9][0-9]{0,8}$/;
/**
 * The length of the subject-key reference that starts a subject-bound payload: random bytes naming the
 * subject's key in the server's store, never the subject.
 */
export const SUBJECT_REF_SIZE = 16;
/** The modes a subject-bound header may name. */
const SUBJECT_MODES: readonly string[] = ["gcm", "chacha", "xgcm"];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$/;

/** Whether `mode` can produce a payload of `length` bytes (proto/README.md, Payload layout). */
function payloadLengthOk(mode: Mode, length: number): boolean {
  switch (mode) {
    case "gcm":
    case "chacha":
      return length >= 28;
    case "xgcm":
      return length >= 40;
    case "cbc":
      return length >= 32 && length % 16 === 0;
    case "ecb":
      return length >= 16 && length % 16 === 0;
    case "ctr":
    case "cfb":
    case "ofb":
    case "siv":
      return length >= 16;
  }
}

/**
 * A parsed ciphertext: the key version and mode its header names, and the raw payload. A `subjectBound`
 * one (sealed under a data subject's key) names no version (keyVersion 0); its payload starts with the
 * SUBJECT_REF_SIZE-byte reference to the subject's key, then the mode's payload.
 */
export class Envelope {
  constructor(
    readonly keyName: string,
    readonly keyVersion: number,
    readonly mode: Mode,
    readonly payload: Uint8Array,
    readonly subjectBound = false,
  ) {}

  /** The header text, "<" through ">", which AEAD modes authenticate. */
  get header(): string {
    if (this.subjectBound) return `<${this.keyName}/s:${this.mode}>`;
    return `<${this.keyName}/v${this.keyVersion}:${this.mode}>`;
  }

  /** The ciphertext text; parseCiphertext(text).format() === text for every valid text. */
  format(): string {
    return this.header + Buffer.from(this.payload).toString("base64");
  }

  /** Keeps the payload out of logs and inspection output. */
  toJSON(): object {
    return { keyName: this.keyName, keyVersion: this.keyVersion, mode: this.mode, subjectBound: this.subjectBound };
  }
}

// The message names the problem only: a ciphertext is data and must not reach a log line.
function reject(defect: string, problem: string): InvalidCiphertextError {
  return new InvalidCiphertextError(`invalid ciphertext: ${problem}`, defect);
}

/** Parses a ciphertext, throwing InvalidCiphertextError (with .defect) if it breaks the format. */
export function parseCiphertext(text: string): Envelope {
  if (text.length === 0) throw reject("empty", "it is empty");
  if (!text.startsWith("<")) throw reject("header_missing", "it must start with '<'");
  const end = text.indexOf(">");
  if (end < 0) throw reject("header_unterminated", "the header has no closing '>'");
  const header = text.slice(1, end);
  const slash = header.indexOf("/");
  const colon = header.indexOf(":", slash + 1);
  if (slash < 0 || colon < 0) throw reject("header_malformed", "the header must be <name/vVERSION:mode>");
  const name = header.slice(0, slash);
  const version = header.slice(slash + 1, colon);
  const mode = header.slice(colon + 1);
  if (!KEY_NAME.test(name)) throw reject("key_name_invalid", "the key name must match [a-z0-9][a-z0-9_-]{0,63}");
  const subjectBound = version === "s";
  if (!subjectBound && !VERSION.test(version)) {
    throw reject(
      "version_invalid",
      "version in header must be at least 1, without leading zeros, or s (subject-bound)",
    );
  }
  if (!(MODES as readonly string[]).includes(mode)) throw reject("mode_unknown", "unknown mode in header");
  if (subjectBound && !SUBJECT_MODES.includes(mode)) {
    throw reject("mode_unknown", "a subject-bound header's mode must be gcm, chacha or xgcm");
  }
  const encoded = text.slice(end + 1);
  if (encoded.length === 0) throw reject("payload_empty", "nothing follows the header");
  if (!BASE64.test(encoded)) throw reject("payload_not_base64", "the payload is not padded standard base64");
  // Node's decoder is lenient (it ignores non-zero unused bits), so re-encoding is the canonical check.
  const payload = Buffer.from(encoded, "base64");
  if (payload.toString("base64") !== encoded) {
    throw reject("payload_not_canonical", "the payload's base64 is not canonical");
  }
  if (!payloadLengthOk(mode as Mode, payload.length - (subjectBound ? SUBJECT_REF_SIZE : 0))) {
    const kind = subjectBound ? `subject-bound ${mode}` : mode;
    throw reject("payload_length_invalid", `a ${kind} payload cannot be ${payload.length} bytes long`);
  }
  if (subjectBound) return new Envelope(name, 0, mode as Mode, new Uint8Array(payload), true);
  return new Envelope(name, Number(version.slice(1)), mode as Mode, new Uint8Array(payload));
}
