/**
 * Wrapped key import (proto/README.md, "Importing wrapped key material"): an import job's public key, and
 * key material wrapped for it here with Node's crypto, so the material never crosses the wire in the clear.
 */
import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from "node:crypto";
import { ImportWrappingAlgorithm, type ImportJob as ProtoImportJob } from "./gen/cipherd/v1/key_admin_service.js";

/** The RSA size of an import job's key: 3072 (the default) or 4096 bits. */
export type ImportWrapping = "rsa_3072" | "rsa_4096";

/**
 * A one-time permission to import one version of `keyName`, wrapped for `publicKeyPem`, until `expireTime`.
 * It lives on the server replica that made it: import through the same client (one connection).
 */
export interface ImportJob {
  importJobId: string;
  keyName: string;
  wrapping: ImportWrapping;
  publicKeyPem: string;
  expireTime: Date;
}

export function wrappingToProto(wrapping: ImportWrapping | undefined): ImportWrappingAlgorithm {
  switch (wrapping) {
    case undefined:
      return ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_UNSPECIFIED;
    case "rsa_3072":
      return ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072;
    case "rsa_4096":
      return ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096;
  }
}

export function importJobFromProto(job: ProtoImportJob | undefined): ImportJob {
  if (job === undefined) throw new Error("cipherd: the server answered without the import job");
  return {
    importJobId: job.importJobId,
    keyName: job.keyName,
    wrapping:
      job.wrappingAlgorithm === ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096
        ? "rsa_4096"
        : "rsa_3072",
    publicKeyPem: job.publicKeyPem,
    expireTime: job.expireTime ?? new Date(0),
  };
}

/**
 * `keyMaterial` wrapped for an import job's public key: the RSA-OAEP (SHA-256, MGF1 SHA-256, no label)
 * encryption of a fresh AES-256 key, followed by the AES key wrap with padding (RFC 5649, OpenSSL's
 * id-aes256-wrap-pad) of the material under it. The AES key is wiped before it returns.
 */
export function wrapKeyMaterial(publicKeyPem: string, keyMaterial: Uint8Array): Uint8Array {
  const ephemeral = randomBytes(32);
  try {
    const head = publicEncrypt(
      { key: createPublicKey(publicKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      ephemeral,
    );
    // RFC 5649's alternative initial value: OpenSSL takes its first half as the IV and adds the length.
    const kwp = createCipheriv("id-aes256-wrap-pad", ephemeral, Buffer.from("a65959a6", "hex"));
    const tail = Buffer.concat([kwp.update(keyMaterial), kwp.final()]);
    return new Uint8Array(Buffer.concat([head, tail]));
  } finally {
    ephemeral.fill(0);
  }
}

/** MySQL's fold of an AES_ENCRYPT key string into its AES-128 key, so the key itself can go wrapped. */
export function foldMysqlPassphrase(passphrase: Uint8Array): Uint8Array {
  const key = new Uint8Array(16);
  passphrase.forEach((byte, i) => {
    key[i % 16]! ^= byte;
  });
  return key;
}
