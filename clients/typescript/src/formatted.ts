/**
 * Format-preserving values (proto/README.md, "Format-preserving values"): the formats of FF1 keys, and a
 * ciphertext kept together with the key version that made it. An FF1 ciphertext is a value of the key's format
 * with no header: decrypting it with the wrong version (or context) gives a wrong value of the right shape, never
 * an error. So every answer is a FormattedValue, and every call that reads a ciphertext takes one back.
 */
import { fromItemError } from "./errors.js";
import type {
  DecryptFormattedStreamRequest,
  EncryptFormattedStreamRequest,
  FormattedBatchItem,
  FormattedBatchResult,
  ReEncryptFormattedStreamRequest,
} from "./gen/cipherd/v1/format_preserving_service.js";
import { FpeFormat, FpeTemplate } from "./gen/cipherd/v1/keys.js";
import { ItemResult } from "./types.js";

/** A format-preserving ciphertext and the key version that made it: store `keyVersion` beside `value`. */
export interface FormattedValue {
  readonly value: string;
  /** The version that made the value; 0 only for a key whose format reserves a version prefix. */
  readonly keyVersion: number;
}

/** A value reEncryptFormatted moved to the key's current version (`keyVersion`), and the version it came from. */
export interface FormattedRewrapped extends FormattedValue {
  readonly sourceKeyVersion: number;
}

/** One plaintext of encryptFormattedBatch; an empty `context` means the call's. */
export interface FormattedPlainItem {
  value: string;
  context?: Uint8Array;
  reference?: string;
}

/** One ciphertext, with its version, of decryptFormattedBatch or reEncryptFormattedBatch. */
export interface FormattedItem {
  ciphertext: FormattedValue;
  context?: Uint8Array;
  reference?: string;
}

/** Every template's name: the proto enum name without FPE_TEMPLATE_, lowercase. */
export const FPE_TEMPLATES = [
  "digits",
  "lower_alphanumeric",
  "alphanumeric",
  "card_number",
  "card_number_last_four",
  "phone_number",
] as const;
export type FpeTemplateName = (typeof FPE_TEMPLATES)[number];

/**
 * A format-preserving key's format, fixed at creation: exactly one of `alphabet` (2 to 65,536 distinct characters,
 * in numeral order) and `template`. `versionPrefixLength` (alphabets only, 1 or 2) starts every ciphertext with
 * the key version; `acceptSmallDomain` accepts fewer than 1,000,000 possible values (at least 10,000: whoever may
 * encrypt can tabulate them all; a 16-digit card_number needs it); `maskVisibleSuffix` is how many trailing
 * characters maskFormatted shows (0 to 4; 0 with a template: the template's own).
 */
export interface FpeFormatInput {
  alphabet?: string;
  template?: FpeTemplateName;
  versionPrefixLength?: number;
  acceptSmallDomain?: boolean;
  maskVisibleSuffix?: number;
}

/** The format as the API's FpeFormat; a RangeError for one that is both or neither an alphabet and a template. */
export function fpeFormatToProto(f: FpeFormatInput | undefined): FpeFormat | undefined {
  if (f === undefined) return undefined;
  if (((f.alphabet ?? "") === "") === (f.template === undefined)) {
    throw new RangeError("an FPE format is an alphabet or a template, exactly one of them");
  }
  const template =
    f.template === undefined ? undefined : FPE_TEMPLATES.indexOf(f.template) + FpeTemplate.FPE_TEMPLATE_DIGITS;
  if (template !== undefined && template < FpeTemplate.FPE_TEMPLATE_DIGITS) {
    throw new RangeError(`unknown FPE template ${f.template}`);
  }
  return FpeFormat.fromPartial({
    alphabet: f.template === undefined ? f.alphabet : undefined,
    template,
    versionPrefixLength: f.versionPrefixLength ?? 0,
    acceptSmallDomain: f.acceptSmallDomain ?? false,
    maskVisibleSuffix: f.maskVisibleSuffix ?? 0,
  });
}

/** Refuses, before sending, a format without mode "ff1", or (creating) mode "ff1" without a format. */
export function checkFpeMode(mode: string | undefined, format: FpeFormatInput | undefined, creating: boolean): void {
  if (format !== undefined && mode !== "ff1") {
    throw new RangeError('fpeFormat is for format-preserving keys only (mode "ff1")');
  }
  if (creating && mode === "ff1" && format === undefined) {
    throw new RangeError('a format-preserving key (mode "ff1") needs fpeFormat');
  }
}

/** `ciphertext` if it carries its version: a bare string has lost it, which FF1 cannot recover. */
export function asFormatted(ciphertext: FormattedValue): FormattedValue {
  if (typeof ciphertext !== "object" || ciphertext === null || typeof ciphertext.keyVersion !== "number") {
    throw new TypeError(
      "format-preserving ciphertexts travel with their key version: pass { value, keyVersion } as encryptFormatted returned it",
    );
  }
  return ciphertext;
}

/** The items as the API's, each with its own version: the batch-wide key_version is never sent. */
export function batchItems(items: Iterable<FormattedItem | FormattedValue>): FormattedBatchItem[] {
  return [...items].map((item) => {
    const it: FormattedItem = "ciphertext" in item ? item : { ciphertext: item };
    const ct = asFormatted(it.ciphertext);
    return {
      reference: it.reference ?? "",
      value: ct.value,
      context: it.context ?? new Uint8Array(0),
      keyVersion: ct.keyVersion,
    };
  });
}

/** One plaintext of encryptFormattedStream as its request; an item's empty context means the call's. */
export function plainStreamRequest(
  keyName: string,
  item: FormattedPlainItem | string,
  context: Uint8Array | undefined,
): EncryptFormattedStreamRequest {
  const it = typeof item === "string" ? { value: item } : item;
  return { reference: it.reference ?? "", keyName, value: it.value, context: orContext(it.context, context) };
}

/** One ciphertext of decryptFormattedStream or reEncryptFormattedStream as its request, with its own version. */
export function cipherStreamRequest(
  keyName: string,
  item: FormattedItem | FormattedValue,
  context: Uint8Array | undefined,
): DecryptFormattedStreamRequest & ReEncryptFormattedStreamRequest {
  const it: FormattedItem = "ciphertext" in item ? item : { ciphertext: item };
  const ct = asFormatted(it.ciphertext);
  return {
    reference: it.reference ?? "",
    keyName,
    value: ct.value,
    context: orContext(it.context, context),
    keyVersion: ct.keyVersion,
  };
}

/** An item's context, else the call's: a stream request has no call-wide context. */
function orContext(item: Uint8Array | undefined, call: Uint8Array | undefined): Uint8Array {
  return item !== undefined && item.length > 0 ? item : (call ?? new Uint8Array(0));
}

export function valueResult(r: FormattedBatchResult | undefined): ItemResult<FormattedValue> {
  if (r === undefined) return new ItemResult<FormattedValue>("", undefined, fromItemError(undefined)); // a stream answer without its result
  return r.value !== undefined
    ? new ItemResult(r.reference, { value: r.value, keyVersion: r.keyVersion }, undefined, r.keyVersion)
    : new ItemResult<FormattedValue>(r.reference, undefined, fromItemError(r.error));
}

export function plaintextResult(r: FormattedBatchResult | undefined): ItemResult<string> {
  if (r === undefined) return new ItemResult<string>("", undefined, fromItemError(undefined)); // a stream answer without its result
  return r.value !== undefined
    ? new ItemResult(r.reference, r.value, undefined, r.keyVersion)
    : new ItemResult<string>(r.reference, undefined, fromItemError(r.error));
}

export function rewrapResult(r: FormattedBatchResult | undefined): ItemResult<FormattedRewrapped> {
  if (r === undefined) return new ItemResult<FormattedRewrapped>("", undefined, fromItemError(undefined)); // a stream answer without its result
  return r.value !== undefined
    ? new ItemResult(
        r.reference,
        { value: r.value, keyVersion: r.keyVersion, sourceKeyVersion: r.sourceKeyVersion },
        undefined,
        r.keyVersion,
      )
    : new ItemResult<FormattedRewrapped>(r.reference, undefined, fromItemError(r.error));
}
