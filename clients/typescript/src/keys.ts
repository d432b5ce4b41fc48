/** Key administration values: the policy a caller gives, the import request, and the version census. */
import type { KeyMode } from "./envelope.js";
import {
  ImportKeyRequest,
  type GetKeyCensusRequest,
  type GetKeyCensusResponse,
} from "./gen/cipherd/v1/key_admin_service.js";
import { type Key, KeyPolicy, KeyVersionUsage, TransitKdf } from "./gen/cipherd/v1/keys.js";
import type { Duration } from "./gen/google/protobuf/duration.js";
import { type LegacyImportOptions, legacyCipherToProto, legacyIvToProto } from "./legacy.js";
import { modeToProto } from "./convert.js";
import { checkFpeMode, type FpeFormatInput, fpeFormatToProto } from "./formatted.js";

/**
 * A key policy as createKey and updateKeyPolicy take it; unset fields are their proto defaults.
 * `autoRotatePeriod` is in whole seconds (at least 60) or a Duration, as getKey returns it.
 */
export type PolicyInput = Omit<Partial<KeyPolicy>, "autoRotatePeriod"> & { autoRotatePeriod?: number | Duration };

export function policyToProto(policy: PolicyInput): KeyPolicy {
  const period = policy.autoRotatePeriod;
  const autoRotatePeriod = typeof period === "number" ? secondsToDuration(period, "autoRotatePeriod") : period;
  return KeyPolicy.fromPartial({ ...policy, autoRotatePeriod });
}

/**
 * A version's usage with zeros for a server that sent none. `indexLookups` and `lastLookupTime` count
 * all-versions lookups of an index key apart: they neither set `lastUsedTime` nor keep the version in use.
 */
export function usageOf(version: { usage?: KeyVersionUsage | undefined }): KeyVersionUsage {
  return version.usage ?? KeyVersionUsage.fromPartial({});
}

/**
 * One version in a census: its usage across replicas, whether it was used within the quiet period, and how many
 * live subject keys it wraps (a version that wraps any cannot be retired until the subject-key sweep rewrapped them).
 */
export interface VersionCensus {
  version: number;
  usage: KeyVersionUsage;
  inUse: boolean;
  subjectKeys: number;
}

/**
 * Which versions still see traffic (proto/README.md, "Version census"): every version from the
 * policy's minDecryptionVersion up, oldest first, and the highest minDecryptionVersion that refuses
 * no version used within the quiet period.
 */
export interface KeyCensus {
  key: Key;
  versions: VersionCensus[];
  safeMinDecryptionVersion: number;
}

export function censusRequest(keyName: string, quietPeriodSeconds: number | undefined): GetKeyCensusRequest {
  const quietPeriod =
    quietPeriodSeconds === undefined ? undefined : secondsToDuration(quietPeriodSeconds, "quietPeriodSeconds");
  return { keyName, quietPeriod };
}

export function census(response: GetKeyCensusResponse): KeyCensus {
  if (response.key === undefined) throw new Error("the server answered a census without its key");
  return {
    key: response.key,
    versions: response.versions.map((v) => ({
      version: v.version,
      usage: usageOf(v),
      inUse: v.inUse,
      subjectKeys: v.subjectKeys,
    })),
    safeMinDecryptionVersion: response.safeMinDecryptionVersion,
  };
}

/** importKey's options: a cipherd version's mode, or a legacy version's cipher, IV convention and passphrase. */
export interface ImportOptions extends LegacyImportOptions {
  mode?: KeyMode;
  allowUnauthenticated?: boolean;
  /** The format of "ff1" material (16, 24 or 32 bytes), equal to the key's when the key exists. */
  fpeFormat?: FpeFormatInput;
  /**
   * Imports a version of a derived Vault Transit key ("gcm" or "chacha" material as Transit exports it), by
   * Transit's name of its KDF (its key info's `kdf`): the version only decrypts Transit's ciphertexts, deriving
   * each one's key from the call's context, and never encrypts.
   */
  transitKdf?: TransitKdfName;
}

/** Transit's names of its derived keys' KDFs (proto/README.md, "Vault Transit ciphertexts"). */
export type TransitKdfName = "hkdf_sha256" | "hmac-sha256-counter";

const TRANSIT_KDFS: Record<TransitKdfName, TransitKdf> = {
  hkdf_sha256: TransitKdf.TRANSIT_KDF_HKDF_SHA256,
  "hmac-sha256-counter": TransitKdf.TRANSIT_KDF_HMAC_SHA256_COUNTER,
};

function transitKdfToProto(kdf: TransitKdfName | undefined): TransitKdf {
  if (kdf === undefined) return TransitKdf.TRANSIT_KDF_UNSPECIFIED;
  const value = TRANSIT_KDFS[kdf];
  if (value === undefined) throw new RangeError(`transitKdf is hkdf_sha256 or hmac-sha256-counter, not ${kdf}`);
  return value;
}

export function importKeyRequest(keyName: string, keyMaterial: Uint8Array, options: ImportOptions): ImportKeyRequest {
  const passphrase =
    typeof options.passphrase === "string" ? new TextEncoder().encode(options.passphrase) : options.passphrase;
  checkFpeMode(options.mode, options.fpeFormat, false);
  return ImportKeyRequest.fromPartial({
    keyName,
    keyMaterial,
    mode: modeToProto(options.mode),
    allowUnauthenticated: options.allowUnauthenticated ?? false,
    legacyCipher: legacyCipherToProto(options.legacyCipher),
    legacyIv: legacyIvToProto(options.legacyIv),
    legacyFixedIv: options.legacyFixedIv,
    passphrase,
    fpeFormat: fpeFormatToProto(options.fpeFormat),
    transitKdf: transitKdfToProto(options.transitKdf),
  });
}

export function secondsToDuration(seconds: number, name: string): Duration {
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new RangeError(`${name} must be a whole number of seconds`);
  return { seconds, nanos: 0 };
}
