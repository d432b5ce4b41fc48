/** @cipherd/client: a promise-based client of cipherd, its local ciphertext parser and typed errors. */
export { CipherdClient, type KeyOptions } from "./client.js";
export {
  Envelope,
  KEY_MODES,
  type KeyMode,
  MODES,
  type Mode,
  parseCiphertext,
  SUBJECT_REF_SIZE,
} from "./envelope.js";
export * from "./errors.js";
export { type Items, STREAM_WINDOW, type StreamOptions } from "./stream.js";
export type { ImportOptions, KeyCensus, PolicyInput, TransitKdfName, VersionCensus } from "./keys.js";
export { usageOf } from "./keys.js";
export { type ImportJob, type ImportWrapping, wrapKeyMaterial } from "./key-import.js";
export { type KeyBackupFile, KeyBackupUnopenableError, OpenedKeyBackup, openKeyBackup } from "./key-backup.js";
export {
  type InventoryInput,
  keyStateName,
  type RetireOptions,
  type Retirement,
  versionStateName,
} from "./lifecycle.js";
export {
  LEGACY_CIPHERS,
  LEGACY_IVS,
  type LegacyCipher,
  type LegacyCiphertext,
  type LegacyData,
  type LegacyImportOptions,
  type LegacyIv,
  legacyCipherFromProto,
  legacyIvFromProto,
} from "./legacy.js";
export type { ByteSource } from "./file/byte-reader.js";
export { DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from "./file/format.js";
export type { FileInfo } from "./file/stream-cipher.js";
export type { EncryptFileOptions, FileOptions } from "./file/streams.js";
export * from "./types.js";
export {
  FPE_TEMPLATES,
  type FormattedItem,
  type FormattedPlainItem,
  type FormattedRewrapped,
  type FormattedValue,
  type FpeFormatInput,
  type FpeTemplateName,
} from "./formatted.js";
export {
  type ErasureOutcome,
  type ErasureReceipt,
  MAX_SUBJECTS_PER_CALL,
  type SubjectErasure,
  type SubjectItem,
  type SubjectState,
  type SubjectStatus,
} from "./subjects.js";
export type { FpeFormat, Key, KeyPolicy, KeyVersion, KeyVersionUsage } from "./gen/cipherd/v1/keys.js";
export { FpeTemplate, KeyState, KeyVersionState, TransitKdf } from "./gen/cipherd/v1/keys.js";
export type { AuditCheckpoint, AuditHead, AuditTrailFile } from "./gen/cipherd/v1/audit_service.js";
export type { Duration } from "./gen/google/protobuf/duration.js";
