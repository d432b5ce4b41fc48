/**
 * Key backup and restore (docs/operating.md, "Back up and restore a key, step by step"): a backup file made by backupKey opened here with
 * the recipient's private key (Node's crypto: RSA-OAEP-SHA-256, then OpenSSL's RFC 5649 unwrap), checked, and
 * wrapped again for an import job of the server that restores it (restoreKeyBackup), so the key's material crosses
 * no wire in the clear.
 */
import {
  constants,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  privateDecrypt,
  timingSafeEqual,
} from "node:crypto";
import { KeyBackup, KeyBackupFile as ProtoKeyBackupFile } from "./gen/cipherd/v1/key_admin_service.js";
import type { Key } from "./gen/cipherd/v1/keys.js";

/**
 * What backupKey answers: `file`, a serialized KeyBackupFile (write it to disk as it is; only the recipient's
 * private key opens it), and `key`, the key as backed up.
 */
export interface KeyBackupFile {
  file: Uint8Array;
  key: Key;
}

/** A backup file this private key cannot open: made for another recipient, tampered with, or no backup. */
export class KeyBackupUnopenableError extends Error {
  override name = "KeyBackupUnopenableError";
}

/**
 * A backup file opened with its recipient's private key: `key` is the key it holds (versions and states, no
 * material); `keyBackup` is the serialized KeyBackup, secret, until wipe().
 */
export class OpenedKeyBackup {
  constructor(
    readonly key: Key,
    readonly keyBackup: Uint8Array,
  ) {}

  /** Zeroes the serialized KeyBackup. */
  wipe(): void {
    this.keyBackup.fill(0);
  }
}

/**
 * Opens a backup file with `identityPem`, the recipient's RSA private key (PEM, as openssl genpkey writes it).
 * Refuses, with KeyBackupUnopenableError, a file made for another public key, one that does not unwrap (tampered
 * with), and one whose clear header does not match the KeyBackup inside it.
 */
export function openKeyBackup(file: Uint8Array, identityPem: string | Buffer): OpenedKeyBackup {
  const privateKey = createPrivateKey(identityPem);
  if (privateKey.asymmetricKeyType !== "rsa") throw new TypeError("the identity is not an RSA private key");
  let header: ProtoKeyBackupFile;
  try {
    header = ProtoKeyBackupFile.decode(file);
  } catch {
    throw new KeyBackupUnopenableError("not a key backup file of format 1");
  }
  if (header.format !== 1) throw new KeyBackupUnopenableError("not a key backup file of format 1");
  const spki = createPublicKey(privateKey).export({ type: "spki", format: "der" });
  const recipient = createHash("sha256").update(spki).digest();
  const named = Buffer.from(header.recipientKeySha256);
  if (named.length !== recipient.length || !timingSafeEqual(named, recipient)) {
    throw new KeyBackupUnopenableError(
      `the backup of key '${header.keyName}' was made for another recipient key (SHA-256 ${named.toString("hex")}, this key's is ${recipient.toString("hex")})`,
    );
  }
  const size = (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
  const wrapped = header.wrappedKeyBackup;
  let inner: Buffer;
  try {
    const ephemeral = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      wrapped.subarray(0, size),
    );
    try {
      // RFC 5649's alternative initial value: OpenSSL takes its first half as the IV and checks the length.
      const kwp = createDecipheriv("id-aes256-wrap-pad", ephemeral, Buffer.from("a65959a6", "hex"));
      inner = Buffer.concat([kwp.update(wrapped.subarray(size)), kwp.final()]);
    } finally {
      ephemeral.fill(0);
    }
  } catch {
    throw new KeyBackupUnopenableError(
      `the backup of key '${header.keyName}' does not unwrap: it was tampered with or made for another recipient`,
    );
  }
  let backup: KeyBackup;
  try {
    backup = KeyBackup.decode(inner);
  } catch {
    inner.fill(0);
    throw new KeyBackupUnopenableError(`the backup of key '${header.keyName}' unwraps to no KeyBackup`);
  }
  // The decoded materials are views of `inner` (the reader does not copy bytes): wiping `inner` wipes them.
  if (
    backup.key?.keyName !== header.keyName ||
    !Buffer.from(backup.recipientKeySha256).equals(named) ||
    backup.backupTime?.getTime() !== header.backupTime?.getTime()
  ) {
    inner.fill(0);
    throw new KeyBackupUnopenableError(
      `the backup file's header (key '${header.keyName}') does not match the backup inside it`,
    );
  }
  return new OpenedKeyBackup(backup.key, inner);
}
