/** The values the client takes and returns, independent of the generated message types. */
import type { CipherdError } from "./errors.js";
import type { Mode } from "./envelope.js";
import type { LegacyCiphertext } from "./legacy.js";
import type { TracerProvider } from "@opentelemetry/api";

/** One plaintext of encryptBatch or encryptStream; `reference` is echoed in its result, `keyName` (encryptStream only) encrypts with another key. */
export interface EncryptItem {
  plaintext: Uint8Array;
  context?: Uint8Array;
  reference?: string;
  keyName?: string;
  /** Seals this item under that data subject's key, as SubjectOptions' `subject`; empty or absent means the call's. */
  subject?: string;
}

/** One ciphertext of decryptBatch, decryptStream, reEncryptBatch or reEncryptStream; `keyName` (reEncryptStream only) rewraps into another key. */
export interface CiphertextItem {
  ciphertext: string;
  context?: Uint8Array;
  reference?: string;
  keyName?: string;
  /** The key this item must be under, as the call's `expectedKey`; empty or absent means the call's. */
  expectedKey?: string;
}

/**
 * `expectedKey` refuses a ciphertext whose header names a key other than this name ("users-email"),
 * or, when it ends in '*', a key that does not start with the rest ("users-*"): the server answers
 * UnexpectedKeyError before anything is decrypted. The header names the key that decrypts, so without
 * it anyone who may encrypt under some other key with a column's context can plant a value the
 * column's reader decrypts and trusts; set it wherever a column has one key. For a legacy item it is
 * the legacy key; in a batch or stream, the key of every item that names none of its own.
 */
export interface ExpectedKeyOption {
  expectedKey?: string;
}

/**
 * One legacy ciphertext of reEncryptBatch or reEncryptStream, rewrapped into the item's `keyName`
 * (streams only) or the call's, one of which it needs; `context` binds the new ciphertext.
 */
export interface LegacyItem {
  legacy: LegacyCiphertext;
  context?: Uint8Array;
  reference?: string;
  keyName?: string;
  /** The legacy key this item must be under, as the call's `expectedKey`; empty or absent means the call's. */
  expectedKey?: string;
}

/** What the rewrap calls take: a cipherd ciphertext (alone or as an item) or a legacy item. */
export type RewrapItem = CiphertextItem | LegacyItem | string;

/** A ciphertext rewrapped by reEncrypt: the new text, its version and the version it came from. */
export interface Rewrapped {
  ciphertext: string;
  keyVersion: number;
  sourceKeyVersion: number;
}

/** What the server says of a ciphertext's header: its key version and mode, and the key's current version. */
export interface Inspection {
  keyName: string;
  /** 0 when subjectBound: the header names no version. */
  keyVersion: number;
  mode: Mode;
  currentVersion: number;
  /** Never for a subjectBound ciphertext: the server's sweep moves its subject's key to the current version. */
  behindCurrent: boolean;
  subjectBound: boolean;
}

/**
 * How computeIndex makes a value canonical before hashing it; steps run trim, nfkc, casefold, each only
 * when set. Give the same steps when storing an index and when querying it.
 */
export interface Normalization {
  /** Removes leading and trailing Unicode White_Space. */
  trim?: boolean;
  /** Unicode Normalization Form KC: "ﬁ" and "fi", full-width "Ａ" and "A" become equal. */
  nfkc?: boolean;
  /** Full Unicode case folding: "Straße" and "STRASSE" become equal. */
  casefold?: boolean;
}

/** What computeIndex and computeIndexBatch hash with: the normalization and the index length. */
export interface IndexOptions {
  normalization?: Normalization;
  /** Index bytes, 8 to 32 (default 32); keep one length per column. */
  length?: number;
}

/** A value to index in computeIndexBatch; a string is its UTF-8, `reference` is echoed in its result. */
export interface IndexItem {
  value: Uint8Array | string;
  reference?: string;
}

/** A value's blind index under one key version. */
export interface VersionedIndex {
  keyVersion: number;
  index: Uint8Array;
}

/** computeIndex's answer: the index, its version and, with allVersions, the index under every usable version, newest first. */
export interface BlindIndex extends VersionedIndex {
  versions: VersionedIndex[];
}

/** reIndex's answer: the plaintext's index under the index key's current `keyVersion`, and the version the ciphertext was under. */
export interface ReIndexed extends VersionedIndex {
  sourceKeyVersion: number;
}

/** reIndex's options: the index's normalization and length, and the key the ciphertext must be under. */
export interface ReIndexOptions extends IndexOptions {
  /** A key name, or a prefix ending in '*': a ciphertext under another key is refused (UNEXPECTED_KEY) before decrypting. */
  expectedKey?: string;
  /** The ciphertext's context (associated data), if it has one. */
  context?: Uint8Array;
}

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * A data key from generateDataKey: `plaintextKey` to encrypt locally (then overwrite with fill(0)),
 * `wrappedKey` to store, a ciphertext that decrypt unwraps. The plaintext key stays out of JSON and
 * console output.
 */
export class DataKey {
  constructor(
    readonly plaintextKey: Uint8Array | undefined,
    readonly wrappedKey: string,
    readonly keyVersion: number,
  ) {}

  toJSON(): object {
    return { wrappedKey: this.wrappedKey, keyVersion: this.keyVersion };
  }

  [INSPECT](): string {
    return `DataKey ${JSON.stringify(this)}`;
  }
}

/** TLS to the server: `ca` (PEM) to trust instead of the system roots; `cert` and `key` (PEM) for mutual TLS. */
export interface TlsOptions {
  ca?: Uint8Array;
  cert?: Uint8Array;
  key?: Uint8Array;
  serverName?: string;
}

export interface ClientOptions {
  /** TLS to the server; without it, a loopback target is plaintext and any other gets TLS with the system roots. */
  tls?: TlsOptions;
  /** Plaintext gRPC to a non-loopback target: only for a server deliberately run with --insecure. */
  insecure?: boolean;
  /** Sent as "authorization: Bearer <token>" on every call. */
  token?: string;
  /** Default deadline of each unary call in milliseconds (30 s); streams have none unless given one. */
  timeoutMs?: number;
  maxMessageBytes?: number;
  /**
   * Traces every call through this OpenTelemetry TracerProvider (`trace.getTracerProvider()` for the
   * global one): a client span per call, a child of the active span, sent to cipherd as a W3C traceparent.
   * Off unless set.
   */
  tracerProvider?: TracerProvider;
}

/**
 * The data subject of encrypt, encryptBatch, encryptStream and generateDataKey. `subject` (any opaque id the
 * application has, e.g. "user-8812", 1 to 256 bytes of UTF-8) seals the data under that subject's own key,
 * made on first use, so that eraseSubject makes all of it undecryptable and nobody else's; in a batch or
 * stream, for every item without its own. For an erased subject the call (or item) fails with
 * SubjectErasedError unless `renewErasedSubject`. The id is personal data: no error of this client shows it.
 */
export interface SubjectOptions {
  subject?: string;
  renewErasedSubject?: boolean;
}

export interface CallOptions {
  /** This call's deadline in milliseconds from now. */
  timeoutMs?: number;
  /** Aborting cancels the call; it then rejects with CancelledError. */
  signal?: AbortSignal;
}

/** The outcome of one item of a batch or stream: a value or the error the item failed with. */
export class ItemResult<T> {
  constructor(
    readonly reference: string,
    readonly value: T | undefined,
    readonly error: CipherdError | undefined,
    readonly keyVersion = 0,
  ) {}

  get ok(): boolean {
    return this.error === undefined;
  }

  /** The value, or throws the item's error. */
  unwrap(): T {
    if (this.error !== undefined) throw this.error;
    return this.value as T;
  }

  /** Keeps plaintexts out of logs. */
  toJSON(): object {
    return { reference: this.reference, ok: this.ok, error: this.error?.message, keyVersion: this.keyVersion };
  }
}
