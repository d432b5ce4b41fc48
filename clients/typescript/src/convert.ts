/** Requests built from the client's arguments and results read from responses. */
import { fromItemError } from "./errors.js";
import { KEY_MODES, MODES, type KeyMode, type Mode } from "./envelope.js";
import {
  type ComputeIndexBatchResponse,
  type ComputeIndexResponse,
  type DecryptBatchItem,
  type DecryptBatchResponse,
  type GenerateDataKeyResponse,
  type EncryptBatchResponse,
  type InspectResponse,
  type ItemError,
  type DecryptBatchResult,
  DecryptStreamRequest,
  type EncryptBatchResult,
  EncryptStreamRequest,
  type ReEncryptBatchItem,
  type ReEncryptBatchResult,
  ReEncryptStreamRequest,
  type ReIndexBatchResult,
  type ReIndexResponse,
} from "./gen/cipherd/v1/crypto_service.js";
import { legacyToProto } from "./legacy.js";
import { Mode as ProtoMode } from "./gen/cipherd/v1/keys.js";
import {
  type BlindIndex,
  type CiphertextItem,
  DataKey,
  type EncryptItem,
  type IndexItem,
  type IndexOptions,
  type Inspection,
  ItemResult,
  type ReIndexed,
  type Rewrapped,
  type RewrapItem,
  type SubjectOptions,
} from "./types.js";

const EMPTY = new Uint8Array(0);

/** MODE_UNSPECIFIED for undefined (the server's default), else the proto enum of a key mode name. */
export function modeToProto(mode: KeyMode | undefined): ProtoMode {
  return mode === undefined ? ProtoMode.MODE_UNSPECIFIED : KEY_MODES.indexOf(mode) + ProtoMode.MODE_GCM;
}

export function modeFromProto(mode: ProtoMode): Mode {
  const name = MODES[mode - ProtoMode.MODE_GCM];
  if (name === undefined) throw new Error(`the server answered an unknown mode ${mode}`);
  return name;
}

export function ciphertextItem(item: CiphertextItem | string): Required<CiphertextItem> {
  const i = typeof item === "string" ? { ciphertext: item } : item;
  return {
    ciphertext: i.ciphertext,
    context: i.context ?? EMPTY,
    reference: i.reference ?? "",
    keyName: i.keyName ?? "",
    expectedKey: i.expectedKey ?? "",
  };
}

/** A DecryptBatch item, with its own expected key if any (the batch's applies otherwise). */
export function decryptBatchItem(item: CiphertextItem | string): DecryptBatchItem {
  const { ciphertext, context, reference, expectedKey } = ciphertextItem(item);
  return { ciphertext, context, reference, expectedKey };
}

export function encryptItem(item: EncryptItem | Uint8Array): Required<EncryptItem> {
  const i = item instanceof Uint8Array ? { plaintext: item } : item;
  return {
    plaintext: i.plaintext,
    context: i.context ?? EMPTY,
    reference: i.reference ?? "",
    keyName: i.keyName ?? "",
    subject: i.subject ?? "",
  };
}

/** An EncryptBatch item; an item cannot name its own key in a batch. */
export function encryptBatchItem(
  item: EncryptItem | Uint8Array,
  batchKeyName: string,
): { plaintext: Uint8Array; context: Uint8Array; reference: string; subject: string } {
  const { keyName, ...fields } = encryptItem(item);
  if (keyName !== "" && keyName !== batchKeyName) throw new TypeError("a batch item cannot name its own keyName");
  return fields;
}

/** A rewrap item's request fields: `ciphertext` or `legacy`, and the item's own target key if any. */
export function rewrapItem(item: RewrapItem): ReEncryptBatchItem & { keyName: string } {
  if (typeof item === "string" || !("legacy" in item)) {
    return { ...ciphertextItem(item), legacy: undefined };
  }
  const common = {
    context: item.context ?? EMPTY,
    reference: item.reference ?? "",
    keyName: item.keyName ?? "",
    expectedKey: item.expectedKey ?? "",
  };
  return { ...common, ciphertext: "", legacy: legacyToProto(item.legacy) };
}

/** A ReEncryptBatch item; an item cannot name its own target key in a batch. */
export function rewrapBatchItem(item: RewrapItem, batchKeyName: string): ReEncryptBatchItem {
  const { keyName, ...fields } = rewrapItem(item);
  if (keyName !== "" && keyName !== batchKeyName)
    throw new TypeError("a batch item cannot name its own keyName: give the batch's keyName option");
  return fields;
}

/**
 * A ReEncryptStream request: into the item's key, else `keyName`, else (not for legacy items) its own;
 * under the item's expected key, else `expectedKey`.
 */
export function rewrapStreamRequest(item: RewrapItem, keyName: string, expectedKey = ""): ReEncryptStreamRequest {
  const fields = rewrapItem(item);
  return ReEncryptStreamRequest.fromPartial({
    ...fields,
    keyName: fields.keyName || keyName,
    expectedKey: fields.expectedKey || expectedKey,
  });
}

export function encryptStreamRequest(
  keyName: string,
  item: EncryptItem | Uint8Array,
  subject: SubjectOptions = {},
): EncryptStreamRequest {
  const fields = encryptItem(item);
  return EncryptStreamRequest.fromPartial({
    ...fields,
    keyName: fields.keyName || keyName,
    subject: fields.subject || (subject.subject ?? ""),
    renewErasedSubject: subject.renewErasedSubject ?? false,
  });
}

/** A DecryptStream request, under the item's expected key, else `expectedKey`. */
export function decryptStreamRequest(item: CiphertextItem | string, expectedKey = ""): DecryptStreamRequest {
  const fields = ciphertextItem(item);
  const { ciphertext, context, reference } = fields;
  return DecryptStreamRequest.fromPartial({
    ciphertext,
    context,
    reference,
    expectedKey: fields.expectedKey || expectedKey,
  });
}

function failed<T>(reference: string, error: ItemError | undefined): ItemResult<T> {
  return new ItemResult<T>(reference, undefined, fromItemError(error));
}

export function encryptResult(r: EncryptBatchResult | undefined): ItemResult<string> {
  if (r === undefined) return failed("", undefined);
  return r.ciphertext !== undefined
    ? new ItemResult(r.reference, r.ciphertext, undefined, r.keyVersion)
    : failed(r.reference, r.error);
}

export function decryptResult(r: DecryptBatchResult | undefined): ItemResult<Uint8Array> {
  if (r === undefined) return failed("", undefined);
  return r.plaintext !== undefined
    ? new ItemResult(r.reference, r.plaintext, undefined, r.keyVersion)
    : failed(r.reference, r.error);
}

export function encryptResults(response: EncryptBatchResponse): ItemResult<string>[] {
  return response.results.map(encryptResult);
}

export function decryptResults(response: DecryptBatchResponse): ItemResult<Uint8Array>[] {
  return response.results.map(decryptResult);
}

export function rewrapResult(r: ReEncryptBatchResult | undefined): ItemResult<Rewrapped> {
  if (r === undefined) return failed("", undefined);
  if (r.ciphertext === undefined) return failed(r.reference, r.error);
  const value = { ciphertext: r.ciphertext, keyVersion: r.keyVersion, sourceKeyVersion: r.sourceKeyVersion };
  return new ItemResult(r.reference, value, undefined, r.keyVersion);
}

export function inspection(r: InspectResponse): Inspection {
  return {
    keyName: r.keyName,
    keyVersion: r.keyVersion,
    mode: modeFromProto(r.mode),
    currentVersion: r.currentVersion,
    behindCurrent: r.behindCurrent,
    subjectBound: r.subjectBound,
  };
}

// Lone surrogates would reach the server as U+FFFD, so two different strings would share an index.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** A value to index as bytes: a string is its UTF-8, which it must have. */
export function indexValue(value: Uint8Array | string): Uint8Array {
  if (typeof value !== "string") return value;
  if (LONE_SURROGATE.test(value))
    throw new TypeError("the value to index is not well-formed UTF-16 (a lone surrogate)");
  return new TextEncoder().encode(value);
}

/** The request fields of a normalization and a length, shared by computeIndex and computeIndexBatch. */
export function indexFields(options: IndexOptions) {
  const n = options.normalization ?? {};
  return {
    normalization: { trim: n.trim ?? false, nfkc: n.nfkc ?? false, casefold: n.casefold ?? false },
    lengthBytes: options.length ?? 0,
  };
}

export function indexItem(item: IndexItem | Uint8Array | string): { reference: string; value: Uint8Array } {
  const i = typeof item === "string" || item instanceof Uint8Array ? { value: item } : item;
  return { reference: i.reference ?? "", value: indexValue(i.value) };
}

export function blindIndex(r: ComputeIndexResponse): BlindIndex {
  return {
    index: r.index,
    keyVersion: r.keyVersion,
    versions: r.versions.map((v) => ({ keyVersion: v.keyVersion, index: v.index })),
  };
}

export function indexResults(response: ComputeIndexBatchResponse): ItemResult<Uint8Array>[] {
  return response.results.map((r) =>
    r.index !== undefined
      ? new ItemResult(r.reference, r.index, undefined, r.keyVersion)
      : failed(r.reference, r.error),
  );
}

export function reIndexed(r: ReIndexResponse): ReIndexed {
  return { index: r.index, keyVersion: r.keyVersion, sourceKeyVersion: r.sourceKeyVersion };
}

export function reIndexResult(r: ReIndexBatchResult): ItemResult<ReIndexed> {
  if (r.index === undefined) return failed(r.reference, r.error);
  return new ItemResult(
    r.reference,
    { index: r.index, keyVersion: r.keyVersion, sourceKeyVersion: r.sourceKeyVersion },
    undefined,
    r.keyVersion,
  );
}

export function dataKey(r: GenerateDataKeyResponse): DataKey {
  return new DataKey(r.plaintextKey.length > 0 ? r.plaintextKey : undefined, r.wrappedKey, r.keyVersion);
}
