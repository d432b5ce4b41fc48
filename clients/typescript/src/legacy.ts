/**
 * Data encrypted before cipherd, without a header (proto/README.md, "Legacy ciphertexts"): the ciphers a
 * legacy key can be imported for, where their IVs are, and one such ciphertext to rewrap.
 */
import { LegacyCiphertext as ProtoLegacyCiphertext } from "./gen/cipherd/v1/crypto_service.js";
import { LegacyCipher as ProtoLegacyCipher, LegacyIv as ProtoLegacyIv } from "./gen/cipherd/v1/keys.js";

/** How legacy data was encrypted: the proto enum's name without LEGACY_CIPHER_, in lowercase. */
export const LEGACY_CIPHERS = [
  "mysql_aes_ecb", // MySQL/MariaDB AES_ENCRYPT(str, key_str) in its default aes-128-ecb
  "aes_cbc",
  "aes_ecb",
  "aes_ctr",
  "aes_cfb",
  "aes_ofb",
  "aes_gcm",
  "des_cbc",
  "desede_cbc",
  "blowfish_cbc",
  "rc4",
] as const;
export type LegacyCipher = (typeof LEGACY_CIPHERS)[number];

/** Where a legacy key's ciphertexts carry their IV: prepended to the data (the default), in each item, or one for all. */
export const LEGACY_IVS = ["prepended", "separate", "fixed"] as const;
export type LegacyIv = (typeof LEGACY_IVS)[number];

/** The data of a legacy ciphertext, exactly one way, as stored: bytes, hex text (either case) or standard base64. */
export type LegacyData =
  | { raw: Uint8Array; hex?: undefined; base64?: undefined }
  | { hex: string; raw?: undefined; base64?: undefined }
  | { base64: string; raw?: undefined; hex?: undefined };

/**
 * One legacy ciphertext, decrypted on the server with the imported legacy key `keyName` (version
 * `keyVersion`, by default its newest) and rewrapped into a cipherd key; the plaintext never comes back.
 * `iv` is for a key imported with legacyIv "separate" only.
 */
export type LegacyCiphertext = LegacyData & { keyName: string; keyVersion?: number; iv?: Uint8Array };

/** What importKey takes besides a cipherd key's options, to import a decrypt-only legacy version. */
export interface LegacyImportOptions {
  /** Imports a legacy version: the key must then hold legacy versions only, and never encrypts. */
  legacyCipher?: LegacyCipher;
  legacyIv?: LegacyIv;
  /** The one IV every ciphertext used, with legacyIv "fixed". */
  legacyFixedIv?: Uint8Array;
  /** For "mysql_aes_ecb" instead of key material: AES_ENCRYPT's key string (a string is taken as its UTF-8). */
  passphrase?: Uint8Array | string;
}

export function legacyCipherToProto(cipher: LegacyCipher | undefined): ProtoLegacyCipher {
  return cipher === undefined ? ProtoLegacyCipher.LEGACY_CIPHER_UNSPECIFIED : indexIn(LEGACY_CIPHERS, cipher) + 1;
}

export function legacyIvToProto(iv: LegacyIv | undefined): ProtoLegacyIv {
  return iv === undefined ? ProtoLegacyIv.LEGACY_IV_UNSPECIFIED : indexIn(LEGACY_IVS, iv) + 1;
}

/** The name of a version's legacy cipher, undefined for a cipherd version. */
export function legacyCipherFromProto(cipher: ProtoLegacyCipher): LegacyCipher | undefined {
  return LEGACY_CIPHERS[cipher - 1];
}

export function legacyIvFromProto(iv: ProtoLegacyIv): LegacyIv | undefined {
  return LEGACY_IVS[iv - 1];
}

/** The proto form, refusing data given in none or several forms (which the types allow from JavaScript). */
export function legacyToProto(legacy: LegacyCiphertext): ProtoLegacyCiphertext {
  const forms = (["raw", "hex", "base64"] as const).filter((form) => legacy[form] !== undefined);
  if (forms.length !== 1)
    throw new TypeError(
      `a LegacyCiphertext takes exactly one of raw, hex or base64, got ${forms.join(", ") || "none"}`,
    );
  const keyVersion = legacy.keyVersion ?? 0;
  if (!Number.isInteger(keyVersion) || keyVersion < 0)
    throw new RangeError("keyVersion must be 0 (the newest) or a version number");
  return ProtoLegacyCiphertext.fromPartial({
    keyName: legacy.keyName,
    keyVersion,
    raw: legacy.raw,
    hex: legacy.hex,
    base64: legacy.base64,
    iv: legacy.iv ?? new Uint8Array(0),
  });
}

function indexIn<T extends string>(names: readonly T[], name: T): number {
  const i = names.indexOf(name);
  if (i < 0) throw new RangeError(`unknown name "${name}": one of ${names.join(", ")}`);
  return i;
}
