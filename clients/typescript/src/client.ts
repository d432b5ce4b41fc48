/** The client: `const c = new CipherdClient("127.0.0.1:50051"); await c.encrypt("demo", bytes)`. */
import type { Writable } from "node:stream";
import type { ClientUnaryCall, Metadata, ServiceError, CallOptions as GrpcCallOptions } from "@grpc/grpc-js";
import { callMetadata, channelCredentials, channelOptions, deadline, DEFAULT_TIMEOUT_MS, onAbort } from "./channel.js";
import * as convert from "./convert.js";
import type { KeyMode } from "./envelope.js";
import { fromServiceError } from "./errors.js";
import { CryptoServiceClient, ReEncryptRequest } from "./gen/cipherd/v1/crypto_service.js";
import { type AuditCheckpoint, type AuditHead, AuditServiceClient } from "./gen/cipherd/v1/audit_service.js";
import { KeyAdminServiceClient } from "./gen/cipherd/v1/key_admin_service.js";
import { SubjectServiceClient } from "./gen/cipherd/v1/subject_service.js";
import { FormatPreservingServiceClient } from "./gen/cipherd/v1/format_preserving_service.js";
import {
  asFormatted,
  batchItems,
  checkFpeMode,
  cipherStreamRequest,
  type FormattedItem,
  type FormattedPlainItem,
  type FormattedRewrapped,
  type FormattedValue,
  type FpeFormatInput,
  fpeFormatToProto,
  plainStreamRequest,
  plaintextResult,
  rewrapResult,
  valueResult,
} from "./formatted.js";
import type { Key } from "./gen/cipherd/v1/keys.js";
import {
  census,
  censusRequest,
  type ImportOptions,
  importKeyRequest,
  type KeyCensus,
  type PolicyInput,
  policyToProto,
} from "./keys.js";
import { type LegacyCiphertext, legacyToProto } from "./legacy.js";
import {
  foldMysqlPassphrase,
  type ImportJob,
  type ImportWrapping,
  importJobFromProto,
  wrapKeyMaterial,
  wrappingToProto,
} from "./key-import.js";
import { type KeyBackupFile, openKeyBackup } from "./key-backup.js";
import {
  deletionRequest,
  destructionRequest,
  type RetireOptions,
  type Retirement,
  retirement,
  retireRequest,
} from "./lifecycle.js";
import type { ByteSource } from "./file/byte-reader.js";
import { decryptFile, encryptFile, rewrapFileKey } from "./file/paths.js";
import type { FileInfo } from "./file/stream-cipher.js";
import { decryptStream, type EncryptFileOptions, encryptStream, type FileOptions } from "./file/streams.js";
import { type Items, runStream, type StreamOptions } from "./stream.js";
import {
  erasure,
  eraseRequests,
  eraseResults,
  type SubjectErasure,
  type SubjectItem,
  type SubjectStatus,
  subjectStatus,
} from "./subjects.js";
import { tracingInterceptor } from "./tracing.js";
import type {
  BlindIndex,
  CallOptions,
  CiphertextItem,
  ClientOptions,
  DataKey,
  EncryptItem,
  ExpectedKeyOption,
  IndexItem,
  IndexOptions,
  Inspection,
  ItemResult,
  ReIndexed,
  ReIndexOptions,
  Rewrapped,
  RewrapItem,
  SubjectOptions,
} from "./types.js";

type Unary<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<GrpcCallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

export interface KeyOptions extends CallOptions {
  /** The version's mode: gcm by default when creating, the current one when rotating; "hmac" makes an index key. */
  mode?: KeyMode;
  keySizeBits?: number;
  allowUnauthenticated?: boolean;
}

/** A connection to cipherd. Every method returns a promise that rejects with a CipherdError subclass. */
export class CipherdClient {
  private readonly crypto: CryptoServiceClient;
  private readonly admin: KeyAdminServiceClient;
  private readonly audit: AuditServiceClient;
  private readonly subjects: SubjectServiceClient;
  private readonly formatted: FormatPreservingServiceClient;
  private readonly options: ClientOptions;

  constructor(address: string, options: ClientOptions = {}) {
    this.options = options;
    const interceptors = options.tracerProvider === undefined ? [] : [tracingInterceptor(options.tracerProvider)];
    this.crypto = new CryptoServiceClient(address, channelCredentials(address, options), {
      ...channelOptions(options),
      interceptors,
    });
    // One channel for every service.
    const shared = { ...channelOptions(options), interceptors, channelOverride: this.crypto.getChannel() };
    this.admin = new KeyAdminServiceClient(address, channelCredentials(address, options), shared);
    this.audit = new AuditServiceClient(address, channelCredentials(address, options), shared);
    this.subjects = new SubjectServiceClient(address, channelCredentials(address, options), shared);
    this.formatted = new FormatPreservingServiceClient(address, channelCredentials(address, options), shared);
  }

  close(): void {
    this.crypto.close();
  }

  private unary<Req, Res>(method: Unary<Req, Res>, request: Req, call?: CallOptions): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      const options = { deadline: deadline(call, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS) };
      const metadata = callMetadata(this.options.token);
      let stopListening = () => {};
      const pending = method(request, metadata, options, (error, response) => {
        stopListening();
        if (error) reject(fromServiceError(error));
        else resolve(response);
      });
      stopListening = onAbort(call?.signal, () => pending.cancel());
    });
  }

  // CryptoService

  /**
   * The ciphertext of `plaintext` under the key's current version (or `keyVersion`), or, with `subject`
   * (SubjectOptions), under that data subject's own key.
   */
  async encrypt(
    keyName: string,
    plaintext: Uint8Array,
    options: CallOptions & SubjectOptions & { context?: Uint8Array; keyVersion?: number } = {},
  ): Promise<string> {
    const request = {
      keyName,
      plaintext,
      context: options.context ?? new Uint8Array(0),
      keyVersion: options.keyVersion ?? 0,
      subject: options.subject ?? "",
      renewErasedSubject: options.renewErasedSubject ?? false,
    };
    return (await this.unary(this.crypto.encrypt.bind(this.crypto), request, options)).ciphertext;
  }

  /** The plaintext of `ciphertext`; see ExpectedKeyOption for `expectedKey`, which a column with one key should set. */
  async decrypt(
    ciphertext: string,
    options: CallOptions & ExpectedKeyOption & { context?: Uint8Array } = {},
  ): Promise<Uint8Array> {
    const request = {
      ciphertext,
      context: options.context ?? new Uint8Array(0),
      expectedKey: options.expectedKey ?? "",
    };
    return (await this.unary(this.crypto.decrypt.bind(this.crypto), request, options)).plaintext;
  }

  /**
   * Rewraps to the current version of its key (or of `keyName`) without returning the plaintext. A
   * legacy ciphertext is rewrapped into `keyName`, which it needs. `expectedKey` (ExpectedKeyOption) is
   * the key the ciphertext, or the legacy key, must be.
   */
  async reEncrypt(
    ciphertext: string | LegacyCiphertext,
    options: CallOptions & ExpectedKeyOption & { context?: Uint8Array; keyName?: string } = {},
  ): Promise<Rewrapped> {
    const source = typeof ciphertext === "string" ? { ciphertext } : { legacy: legacyToProto(ciphertext) };
    const request = ReEncryptRequest.fromPartial({
      ...source,
      context: options.context ?? new Uint8Array(0),
      keyName: options.keyName ?? "",
      expectedKey: options.expectedKey ?? "",
    });
    const r = await this.unary(this.crypto.reEncrypt.bind(this.crypto), request, options);
    return { ciphertext: r.ciphertext, keyVersion: r.keyVersion, sourceKeyVersion: r.sourceKeyVersion };
  }

  /** The ciphertext of each item; `subject` (SubjectOptions) for every item without its own. An item of an erased subject fails alone. */
  async encryptBatch(
    keyName: string,
    items: Iterable<EncryptItem | Uint8Array>,
    options: CallOptions & SubjectOptions = {},
  ): Promise<ItemResult<string>[]> {
    const request = {
      keyName,
      items: [...items].map((i) => convert.encryptBatchItem(i, keyName)),
      subject: options.subject ?? "",
      renewErasedSubject: options.renewErasedSubject ?? false,
    };
    return convert.encryptResults(await this.unary(this.crypto.encryptBatch.bind(this.crypto), request, options));
  }

  /** The plaintext of each item; `expectedKey` (ExpectedKeyOption) for every item without its own. */
  async decryptBatch(
    items: Iterable<CiphertextItem | string>,
    options: CallOptions & ExpectedKeyOption = {},
  ): Promise<ItemResult<Uint8Array>[]> {
    const request = { items: [...items].map(convert.decryptBatchItem), expectedKey: options.expectedKey ?? "" };
    return convert.decryptResults(await this.unary(this.crypto.decryptBatch.bind(this.crypto), request, options));
  }

  /**
   * Rewraps each item to the current version of its key, or of `keyName`, which legacy items need;
   * `expectedKey` (ExpectedKeyOption) for every item without its own.
   */
  async reEncryptBatch(
    items: Iterable<RewrapItem>,
    options: CallOptions & ExpectedKeyOption & { keyName?: string } = {},
  ): Promise<ItemResult<Rewrapped>[]> {
    const keyName = options.keyName ?? "";
    const request = {
      keyName,
      items: [...items].map((i) => convert.rewrapBatchItem(i, keyName)),
      expectedKey: options.expectedKey ?? "",
    };
    const response = await this.unary(this.crypto.reEncryptBatch.bind(this.crypto), request, options);
    return response.results.map(convert.rewrapResult);
  }

  // Item streams (proto/README.md, "Streams"): items from any sync or async iterable, read only as the
  // server answers (at most STREAM_WINDOW ahead); one ItemResult per item, in order, a failed item as
  // its error. The call opens when iteration starts; leaving the loop early or aborting cancels it. A
  // broken stream throws a CipherdError whose `lastReference` the `resumeAfter` option takes.

  /**
   * Encrypts each item with the current version of the item's `keyName`, else of `keyName`; `subject`
   * (SubjectOptions) for every item without its own.
   */
  encryptStream(
    keyName: string,
    items: Items<EncryptItem | Uint8Array>,
    options: StreamOptions & SubjectOptions = {},
  ): AsyncGenerator<ItemResult<string>> {
    return runStream(
      {
        open: () =>
          this.crypto.encryptStream(callMetadata(this.options.token), { deadline: deadline(options, undefined) }),
        request: (item) => convert.encryptStreamRequest(keyName, item, options),
        result: (response) => convert.encryptResult(response.result),
      },
      items,
      options,
      (cancel) => onAbort(options.signal, cancel),
    );
  }

  /** Decrypts each item; `expectedKey` (ExpectedKeyOption) for every item without its own. */
  decryptStream(
    items: Items<CiphertextItem | string>,
    options: StreamOptions & ExpectedKeyOption = {},
  ): AsyncGenerator<ItemResult<Uint8Array>> {
    return runStream(
      {
        open: () =>
          this.crypto.decryptStream(callMetadata(this.options.token), { deadline: deadline(options, undefined) }),
        request: (item) => convert.decryptStreamRequest(item, options.expectedKey),
        result: (response) => convert.decryptResult(response.result),
      },
      items,
      options,
      (cancel) => onAbort(options.signal, cancel),
    );
  }

  /**
   * Rewraps each item to the current version of the item's `keyName`, else of `keyName`, else of its
   * own key; legacy items need one of the first two. `expectedKey` (ExpectedKeyOption) for every item
   * without its own.
   */
  reEncryptStream(
    items: Items<RewrapItem>,
    options: StreamOptions & ExpectedKeyOption & { keyName?: string } = {},
  ): AsyncGenerator<ItemResult<Rewrapped>> {
    return runStream(
      {
        open: () =>
          this.crypto.reEncryptStream(callMetadata(this.options.token), { deadline: deadline(options, undefined) }),
        request: (item) => convert.rewrapStreamRequest(item, options.keyName ?? "", options.expectedKey),
        result: (response) => convert.rewrapResult(response.result),
      },
      items,
      options,
      (cancel) => onAbort(options.signal, cancel),
    );
  }

  /** The server's view of a header (with the key's current version); parseCiphertext needs no call. */
  async inspect(ciphertext: string, options?: CallOptions): Promise<Inspection> {
    return convert.inspection(await this.unary(this.crypto.inspect.bind(this.crypto), { ciphertext }, options));
  }

  /**
   * The blind index of `value` (a string is hashed as its UTF-8) under an index key ("hmac" mode), at its
   * current version or `keyVersion`; with `allVersions`, `versions` holds it under every version still
   * usable, newest first, for a query that matches rows indexed before a rotation.
   */
  async computeIndex(
    keyName: string,
    value: Uint8Array | string,
    options: IndexOptions & CallOptions & { keyVersion?: number; allVersions?: boolean } = {},
  ): Promise<BlindIndex> {
    const request = {
      keyName,
      value: convert.indexValue(value),
      ...convert.indexFields(options),
      keyVersion: options.keyVersion ?? 0,
      allVersions: options.allVersions ?? false,
    };
    return convert.blindIndex(await this.unary(this.crypto.computeIndex.bind(this.crypto), request, options));
  }

  /** The blind index of each item at the key's current version, one result per item in order. */
  async computeIndexBatch(
    keyName: string,
    items: Iterable<IndexItem | Uint8Array | string>,
    options: IndexOptions & CallOptions = {},
  ): Promise<ItemResult<Uint8Array>[]> {
    const request = { keyName, ...convert.indexFields(options), items: [...items].map(convert.indexItem) };
    return convert.indexResults(await this.unary(this.crypto.computeIndexBatch.bind(this.crypto), request, options));
  }

  /**
   * The blind index of `ciphertext`'s plaintext under the current version of `indexKeyName`, computed
   * inside the server: what computeIndex of the plaintext gives, the plaintext never leaving the
   * server. For re-indexing a column after its index key rotates; needs `reindex` on the ciphertext's
   * key and `index` on the index key, not `decrypt`.
   */
  async reIndex(
    indexKeyName: string,
    ciphertext: string,
    options: ReIndexOptions & CallOptions = {},
  ): Promise<ReIndexed> {
    const request = {
      ciphertext,
      context: options.context ?? new Uint8Array(0),
      indexKeyName,
      ...convert.indexFields(options),
      expectedKey: options.expectedKey ?? "",
    };
    return convert.reIndexed(await this.unary(this.crypto.reIndex.bind(this.crypto), request, options));
  }

  /** reIndex of each item (its ciphertext and context), one result per item in order. */
  async reIndexBatch(
    indexKeyName: string,
    items: Iterable<CiphertextItem | string>,
    options: Omit<ReIndexOptions, "context"> & CallOptions = {},
  ): Promise<ItemResult<ReIndexed>[]> {
    const request = {
      indexKeyName,
      ...convert.indexFields(options),
      expectedKey: options.expectedKey ?? "",
      items: [...items].map((item) => {
        const { ciphertext, context, reference } = convert.ciphertextItem(item);
        return { ciphertext, context, reference, expectedKey: "" };
      }),
    };
    const response = await this.unary(this.crypto.reIndexBatch.bind(this.crypto), request, options);
    return response.results.map(convert.reIndexResult);
  }

  /**
   * A fresh data key (256 bits unless `keySizeBits` is 128), in plaintext and wrapped by the key's current
   * version and bound to `context`; with `omitPlaintext` only the wrapped key comes back.
   */
  async generateDataKey(
    keyName: string,
    options: CallOptions &
      SubjectOptions & { keySizeBits?: 128 | 256; context?: Uint8Array; omitPlaintext?: boolean } = {},
  ): Promise<DataKey> {
    const request = {
      keyName,
      keySizeBits: options.keySizeBits ?? 0,
      context: options.context ?? new Uint8Array(0),
      omitPlaintext: options.omitPlaintext ?? false,
      subject: options.subject ?? "",
      renewErasedSubject: options.renewErasedSubject ?? false,
    };
    return convert.dataKey(await this.unary(this.crypto.generateDataKey.bind(this.crypto), request, options));
  }

  // Data-key files (proto/README.md, "Data-key file format"): encrypted locally, chunk by chunk, under a
  // data key from generateDataKey whose wrapped form is the file's header.

  /** Encrypts `source` (a Readable or any iterable of bytes) into `destination`, which it ends. */
  encryptFileStream(
    keyName: string,
    source: ByteSource,
    destination: Writable,
    options?: EncryptFileOptions,
  ): Promise<FileInfo> {
    return encryptStream(this, keyName, source, destination, options);
  }

  /**
   * Decrypts a file from `source` into `destination`, each chunk written once verified. If it rejects,
   * what was written is not the whole plaintext: decryptFile discards it for you.
   */
  decryptFileStream(source: ByteSource, destination: Writable, options?: FileOptions): Promise<FileInfo> {
    return decryptStream(this, source, destination, options);
  }

  /** Encrypts the file at `input` into `output`, replaced only once complete. */
  encryptFile(keyName: string, input: string, output: string, options?: EncryptFileOptions): Promise<FileInfo> {
    return encryptFile(this, keyName, input, output, options);
  }

  /** Decrypts the file at `input` into `output` (mode 0600), which appears only once every chunk verified. */
  decryptFile(input: string, output: string, options?: FileOptions): Promise<FileInfo> {
    return decryptFile(this, input, output, options);
  }

  /** Rewraps a file's data key to the current version (or into `keyName`), rewriting only its header. */
  rewrapFileKey(path: string, options?: FileOptions & { keyName?: string }): Promise<Rewrapped> {
    return rewrapFileKey(this, path, options);
  }

  // FormatPreservingService (proto/README.md, "Format-preserving values"): values that keep their shape under an
  // "ff1" key. They carry no header: every answer is a FormattedValue (value and key version), and every call that
  // reads a ciphertext takes one back. `context` names where the value lives (e.g. "users.card_number" as bytes);
  // it is hashed into FF1's tweak and needed again to decrypt.

  /** `value` (of the key's format) encrypted with the key's current version, and the version to store beside it. */
  async encryptFormatted(
    keyName: string,
    value: string,
    options: CallOptions & { context?: Uint8Array } = {},
  ): Promise<FormattedValue> {
    const request = { keyName, value, context: options.context ?? new Uint8Array(0) };
    const r = await this.unary(this.formatted.encryptFormatted.bind(this.formatted), request, options);
    return { value: r.value, keyVersion: r.keyVersion };
  }

  /** The plaintext of `ciphertext` under the version it names; a wrong version or context gives a wrong value, never an error. */
  async decryptFormatted(
    keyName: string,
    ciphertext: FormattedValue,
    options: CallOptions & { context?: Uint8Array } = {},
  ): Promise<string> {
    const request = formattedRequest(keyName, ciphertext, options.context);
    return (await this.unary(this.formatted.decryptFormatted.bind(this.formatted), request, options)).value;
  }

  /** `ciphertext` moved to the key's current version, the plaintext never leaving the server (needs rewrap, not decrypt). */
  async reEncryptFormatted(
    keyName: string,
    ciphertext: FormattedValue,
    options: CallOptions & { context?: Uint8Array } = {},
  ): Promise<FormattedRewrapped> {
    const request = formattedRequest(keyName, ciphertext, options.context);
    const r = await this.unary(this.formatted.reEncryptFormatted.bind(this.formatted), request, options);
    return { value: r.value, keyVersion: r.keyVersion, sourceKeyVersion: r.sourceKeyVersion };
  }

  /** The display mask of `ciphertext`'s plaintext (e.g. "•••• •••• •••• 4242"), never the plaintext: needs mask, not decrypt. */
  async maskFormatted(
    keyName: string,
    ciphertext: FormattedValue,
    options: CallOptions & { context?: Uint8Array } = {},
  ): Promise<string> {
    const request = formattedRequest(keyName, ciphertext, options.context);
    return (await this.unary(this.formatted.maskFormatted.bind(this.formatted), request, options)).masked;
  }

  /** encryptFormatted of each item (`context` for every item without its own): one result per item, in order. */
  async encryptFormattedBatch(
    keyName: string,
    items: Iterable<FormattedPlainItem | string>,
    options: CallOptions & { context?: Uint8Array } = {},
  ): Promise<ItemResult<FormattedValue>[]> {
    const request = {
      keyName,
      context: options.context ?? new Uint8Array(0),
      items: [...items].map((i) => {
        const item = typeof i === "string" ? { value: i } : i;
        return { reference: item.reference ?? "", value: item.value, context: item.context ?? new Uint8Array(0) };
      }),
    };
    const r = await this.unary(this.formatted.encryptFormattedBatch.bind(this.formatted), request, options);
    return r.results.map(valueResult);
  }

  /** The plaintext of each item under its own version (the result's keyVersion); one result per item, in order. */
  async decryptFormattedBatch(
    keyName: string,
    items: Iterable<FormattedItem | FormattedValue>,
    options: CallOptions & { context?: Uint8Array } = {},
  ): Promise<ItemResult<string>[]> {
    const request = { keyName, context: options.context ?? new Uint8Array(0), items: batchItems(items), keyVersion: 0 };
    const r = await this.unary(this.formatted.decryptFormattedBatch.bind(this.formatted), request, options);
    return r.results.map(plaintextResult);
  }

  /** reEncryptFormatted of each item; one result per item, in order. */
  async reEncryptFormattedBatch(
    keyName: string,
    items: Iterable<FormattedItem | FormattedValue>,
    options: CallOptions & { context?: Uint8Array } = {},
  ): Promise<ItemResult<FormattedRewrapped>[]> {
    const request = { keyName, context: options.context ?? new Uint8Array(0), items: batchItems(items), keyVersion: 0 };
    const r = await this.unary(this.formatted.reEncryptFormattedBatch.bind(this.formatted), request, options);
    return r.results.map(rewrapResult);
  }

  // The formatted streams run as the item streams do: items read only as the server answers, one ItemResult per
  // item, in order, a failed item as its error, a broken stream throwing a CipherdError whose `lastReference` the
  // `resumeAfter` option takes. `context` is every item's without its own.

  /** encryptFormatted of each item, through one EncryptFormattedStream. */
  encryptFormattedStream(
    keyName: string,
    items: Items<FormattedPlainItem | string>,
    options: StreamOptions & { context?: Uint8Array } = {},
  ): AsyncGenerator<ItemResult<FormattedValue>> {
    return runStream(
      {
        open: () =>
          this.formatted.encryptFormattedStream(callMetadata(this.options.token), {
            deadline: deadline(options, undefined),
          }),
        request: (item) => plainStreamRequest(keyName, item, options.context),
        result: (response) => valueResult(response.result),
      },
      items,
      options,
      (cancel) => onAbort(options.signal, cancel),
    );
  }

  /** The plaintext of each item under its own version, through one DecryptFormattedStream. */
  decryptFormattedStream(
    keyName: string,
    items: Items<FormattedItem | FormattedValue>,
    options: StreamOptions & { context?: Uint8Array } = {},
  ): AsyncGenerator<ItemResult<string>> {
    return runStream(
      {
        open: () =>
          this.formatted.decryptFormattedStream(callMetadata(this.options.token), {
            deadline: deadline(options, undefined),
          }),
        request: (item) => cipherStreamRequest(keyName, item, options.context),
        result: (response) => plaintextResult(response.result),
      },
      items,
      options,
      (cancel) => onAbort(options.signal, cancel),
    );
  }

  /**
   * reEncryptFormatted of each item, through one ReEncryptFormattedStream: how to move a whole column to the
   * key's current version after a rotation.
   */
  reEncryptFormattedStream(
    keyName: string,
    items: Items<FormattedItem | FormattedValue>,
    options: StreamOptions & { context?: Uint8Array } = {},
  ): AsyncGenerator<ItemResult<FormattedRewrapped>> {
    return runStream(
      {
        open: () =>
          this.formatted.reEncryptFormattedStream(callMetadata(this.options.token), {
            deadline: deadline(options, undefined),
          }),
        request: (item) => cipherStreamRequest(keyName, item, options.context),
        result: (response) => rewrapResult(response.result),
      },
      items,
      options,
      (cancel) => onAbort(options.signal, cancel),
    );
  }

  // KeyAdminService

  /**
   * A new key; a policy's unset fields are their proto defaults. An "ff1" key needs `fpeFormat`, which every later
   * version keeps. An `exportable` key can be backed up (backupKey), for good.
   */
  async createKey(
    keyName: string,
    options: KeyOptions & { policy?: PolicyInput; fpeFormat?: FpeFormatInput; exportable?: boolean } = {},
  ): Promise<Key> {
    checkFpeMode(options.mode, options.fpeFormat, true);
    const request = {
      ...keyFields(keyName, options),
      policy: options.policy && policyToProto(options.policy),
      fpeFormat: fpeFormatToProto(options.fpeFormat),
      exportable: options.exportable ?? false,
    };
    return required((await this.unary(this.admin.createKey.bind(this.admin), request, options)).key);
  }

  /** The key's versions, each with its usage (as last merged across replicas, plus this replica's since), and policy. */
  async getKey(keyName: string, options?: CallOptions): Promise<Key> {
    return required((await this.unary(this.admin.getKey.bind(this.admin), { keyName }, options)).key);
  }

  /** Every key in name order, fetching a page at a time as the iteration needs it. */
  async *listKeys(options: CallOptions & { pageSize?: number } = {}): AsyncGenerator<Key> {
    let pageToken = "";
    do {
      const page = await this.unary(
        this.admin.listKeys.bind(this.admin),
        { pageSize: options.pageSize ?? 0, pageToken },
        options,
      );
      yield* page.keys;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  async rotateKey(keyName: string, options: KeyOptions = {}): Promise<Key> {
    return required(
      (await this.unary(this.admin.rotateKey.bind(this.admin), keyFields(keyName, options), options)).key,
    );
  }

  /** Replaces the key's policy; unset fields are their proto defaults. */
  async updateKeyPolicy(keyName: string, policy: PolicyInput, options?: CallOptions): Promise<Key> {
    const request = { keyName, policy: policyToProto(policy) };
    return required((await this.unary(this.admin.updateKeyPolicy.bind(this.admin), request, options)).key);
  }

  /**
   * Adds a version with the given key bytes; with `legacyCipher`, a decrypt-only legacy version whose
   * data reEncrypt rewraps into another key (for "mysql_aes_ecb", `passphrase` may replace the key
   * bytes: pass an empty keyMaterial). The material goes in the clear, which a server takes only with
   * --allow-plaintext-key-import (PlaintextImportDisabledError otherwise): importKeyWrapped is the way in.
   */
  async importKey(keyName: string, keyMaterial: Uint8Array, options: ImportOptions & CallOptions = {}): Promise<Key> {
    const request = importKeyRequest(keyName, keyMaterial, options);
    return required((await this.unary(this.admin.importKey.bind(this.admin), request, options)).key);
  }

  /**
   * A new import job for `keyName` (which need not exist): a one-time RSA public key to wrap one version's
   * material for (wrapKeyMaterial), valid on the replica that made it until its expireTime. Needs `import`.
   */
  async createImportJob(
    keyName: string,
    options: CallOptions & { wrapping?: ImportWrapping } = {},
  ): Promise<ImportJob> {
    const request = { keyName, wrappingAlgorithm: wrappingToProto(options.wrapping) };
    return importJobFromProto(
      (await this.unary(this.admin.createImportJob.bind(this.admin), request, options)).importJob,
    );
  }

  /**
   * importKey without the material ever in the clear on the wire: creates an import job for `keyName`, wraps
   * `keyMaterial` for its public key here (RSA-OAEP-SHA-256 and RFC 5649) and imports the result on this
   * client's connection. A "mysql_aes_ecb" `passphrase` is folded into its key here and that is wrapped. The
   * way in on a server without --allow-plaintext-key-import.
   */
  async importKeyWrapped(
    keyName: string,
    keyMaterial: Uint8Array,
    options: ImportOptions & CallOptions = {},
  ): Promise<Key> {
    const { passphrase, ...rest } = options;
    let material = keyMaterial;
    if (passphrase !== undefined && passphrase.length > 0) {
      if (keyMaterial.length > 0 || options.legacyCipher !== "mysql_aes_ecb") {
        throw new RangeError("a passphrase is for legacyCipher mysql_aes_ecb, instead of key material");
      }
      material = foldMysqlPassphrase(
        typeof passphrase === "string" ? new TextEncoder().encode(passphrase) : passphrase,
      );
    }
    try {
      const job = await this.createImportJob(keyName, options);
      const request = importKeyRequest(keyName, new Uint8Array(0), rest);
      request.wrappedKeyMaterial = wrapKeyMaterial(job.publicKeyPem, material);
      request.importJobId = job.importJobId;
      return required((await this.unary(this.admin.importKey.bind(this.admin), request, options)).key);
    } finally {
      if (material !== keyMaterial) material.fill(0);
    }
  }

  /** Marks the key exportable, for good: from then on backupKey may write it out. Needs the admin operation. */
  setKeyExportable(keyName: string, options?: CallOptions): Promise<Key> {
    return this.keyOf(this.admin.setKeyExportable.bind(this.admin), { keyName }, options);
  }

  /**
   * The key whole (every version's material, state and destruction schedule, its policy and state) wrapped for
   * `recipientPublicKeyPem`, an RSA-3072 or RSA-4096 PEM public key whose private key lives offline.
   * KeyNotExportableError for a key not made exportable. Needs the export operation, which admin does not imply.
   */
  async backupKey(keyName: string, recipientPublicKeyPem: string, options?: CallOptions): Promise<KeyBackupFile> {
    const request = { keyName, recipientPublicKeyPem };
    const response = await this.unary(this.admin.backupKey.bind(this.admin), request, options);
    return { file: response.backupFile, key: required(response.key) };
  }

  /**
   * Creates key `keyName` from a serialized KeyBackup of it wrapped (wrapKeyMaterial) for import job `importJobId`
   * of this client's server, made for `keyName`; AlreadyExistsError if the key exists (a restore never
   * overwrites). restoreKeyBackup does the whole restore from a file. Needs the import operation on `keyName`.
   */
  restoreKey(keyName: string, importJobId: string, wrappedKeyBackup: Uint8Array, options?: CallOptions): Promise<Key> {
    return this.keyOf(this.admin.restoreKey.bind(this.admin), { keyName, importJobId, wrappedKeyBackup }, options);
  }

  /**
   * Restores a backup file (backupKey's `file`) into this client's server: opens it with the recipient's private
   * key (openKeyBackup, which refuses another recipient's file or a tampered one), creates an import job for the
   * key's name, wraps the backup for it and calls restoreKey. The opened backup is wiped before this returns.
   */
  async restoreKeyBackup(file: Uint8Array, identityPem: string | Buffer, options?: CallOptions): Promise<Key> {
    const opened = openKeyBackup(file, identityPem);
    try {
      const job = await this.createImportJob(opened.key.keyName, options);
      return await this.restoreKey(
        opened.key.keyName,
        job.importJobId,
        wrapKeyMaterial(job.publicKeyPem, opened.keyBackup),
        options,
      );
    } finally {
      opened.wipe();
    }
  }

  /** Which versions were used within `quietPeriodSeconds` (the server's default: 7 days), and how far minDecryptionVersion can safely rise. */
  async getKeyCensus(keyName: string, options: CallOptions & { quietPeriodSeconds?: number } = {}): Promise<KeyCensus> {
    const request = censusRequest(keyName, options.quietPeriodSeconds);
    return census(await this.unary(this.admin.getKeyCensus.bind(this.admin), request, options));
  }

  // Key lifecycle (proto/README.md, "Errors"): refusals are FailedPreconditionError subclasses.

  private async keyOf<Req>(
    method: Unary<Req, { key?: Key | undefined }>,
    request: Req,
    options?: CallOptions,
  ): Promise<Key> {
    return required((await this.unary(method, request, options)).key);
  }

  /** Makes the key refuse every call (KeyDisabledError) until enableKey; its versions and policy stay. */
  disableKey(keyName: string, options?: CallOptions): Promise<Key> {
    return this.keyOf(this.admin.disableKey.bind(this.admin), { keyName }, options);
  }

  /** Serves a disabled key again (a key scheduled for deletion needs cancelKeyDeletion first). */
  enableKey(keyName: string, options?: CallOptions): Promise<Key> {
    return this.keyOf(this.admin.enableKey.bind(this.admin), { keyName }, options);
  }

  /**
   * Schedules `versions` (never the current one) for destruction after the pending window; they refuse
   * every call at once (KeyVersionDestructionScheduledError), and are KeyVersionDestroyedError after.
   */
  scheduleKeyVersionDestruction(
    keyName: string,
    versions: Iterable<number>,
    options: CallOptions & { pendingWindowSeconds?: number } = {},
  ): Promise<Key> {
    const request = destructionRequest(keyName, versions, options.pendingWindowSeconds);
    return this.keyOf(this.admin.scheduleKeyVersionDestruction.bind(this.admin), request, options);
  }

  /** Restores versions scheduled for destruction whose pending window has not passed. */
  cancelKeyVersionDestruction(keyName: string, versions: Iterable<number>, options?: CallOptions): Promise<Key> {
    return this.keyOf(
      this.admin.cancelKeyVersionDestruction.bind(this.admin),
      { keyName, versions: [...versions] },
      options,
    );
  }

  /** Schedules every version for destruction after the pending window, keeping the name as a tombstone; the key refuses every call at once. */
  scheduleKeyDeletion(keyName: string, options: CallOptions & { pendingWindowSeconds?: number } = {}): Promise<Key> {
    return this.keyOf(
      this.admin.scheduleKeyDeletion.bind(this.admin),
      deletionRequest(keyName, options.pendingWindowSeconds),
      options,
    );
  }

  /** Restores a key scheduled for deletion; it comes back disabled, so enableKey it knowingly. */
  cancelKeyDeletion(keyName: string, options?: CallOptions): Promise<Key> {
    return this.keyOf(this.admin.cancelKeyDeletion.bind(this.admin), { keyName }, options);
  }

  /**
   * Raises minDecryptionVersion to `belowVersion` and schedules every older version for destruction, in one
   * write; rejects with KeyVersionsInUseError (its `versions` lists them) while any was used within the
   * quiet period on any replica. `dryRun` answers the plan without acting.
   */
  async retireKeyVersions(
    keyName: string,
    belowVersion: number,
    options: RetireOptions & CallOptions = {},
  ): Promise<Retirement> {
    return retirement(
      await this.unary(
        this.admin.retireKeyVersions.bind(this.admin),
        retireRequest(keyName, belowVersion, options),
        options,
      ),
    );
  }

  // SubjectService (proto/README.md, "Subject-bound ciphertexts"): every call needs the `erase` operation on
  // the key, which `admin` does not imply.

  /**
   * Erases `subject` under `keyName`: every ciphertext sealed for it there then fails with
   * SubjectErasedError, everyone else's data untouched. Erasing an erased subject, or one that never had
   * a key, is no error: the outcome says which; a receipt comes with the erasure that did it.
   */
  async eraseSubject(keyName: string, subject: string, options?: CallOptions): Promise<SubjectErasure> {
    const response = await this.unary(this.subjects.eraseSubject.bind(this.subjects), { keyName, subject }, options);
    return erasure(response.erasure);
  }

  /**
   * eraseSubject of every item, in calls of up to 1000 (`timeoutMs` is each call's): one result per item,
   * in order, an item's failure its own. A call that fails rejects, after the calls before it took effect
   * (erasing again is harmless).
   */
  async eraseSubjects(
    keyName: string,
    items: Iterable<SubjectItem | string>,
    options?: CallOptions,
  ): Promise<ItemResult<SubjectErasure>[]> {
    const results: ItemResult<SubjectErasure>[] = [];
    for (const request of eraseRequests(keyName, items)) {
      const response = await this.unary(this.subjects.eraseSubjects.bind(this.subjects), request, options);
      results.push(...eraseResults(request, response));
    }
    return results;
  }

  /** Whether `subject` has a key under `keyName`, and whether it was erased. */
  async getSubject(keyName: string, subject: string, options?: CallOptions): Promise<SubjectStatus> {
    return subjectStatus(await this.unary(this.subjects.getSubject.bind(this.subjects), { keyName, subject }, options));
  }

  // AuditService (docs/audit.md)

  /** The keyed hash ("hmac-sha256:<hex>") audit records carry for a context equal to `value` (a string as UTF-8). */
  async hashAuditValue(value: Uint8Array | string, options?: CallOptions): Promise<string> {
    const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
    return (await this.unary(this.audit.hashAuditValue.bind(this.audit), { value: bytes }, options)).hash;
  }

  /**
   * The head the server's key store holds for an audit trail (`trail` as its start lines' "trail" field names it,
   * "" for the server's own): where the trail starts, its last anchored checkpoint and its files; undefined when it
   * holds none for the trail. Ask before reading the files: a head is anchored only after its line is durable, so
   * files read afterwards reach it unless lines were removed (docs/audit.md, "Verifying a trail").
   */
  async auditHead(trail = "", options?: CallOptions): Promise<AuditHead | undefined> {
    return (await this.unary(this.audit.verifyAuditCheckpoints.bind(this.audit), { checkpoints: [], trail }, options))
      .head;
  }

  /** Whether each checkpoint's MAC is the server's audit key's, in order (asked 10,000 at a time). */
  async verifyAuditCheckpoints(checkpoints: readonly AuditCheckpoint[], options?: CallOptions): Promise<boolean[]> {
    const valid: boolean[] = [];
    for (let start = 0; start < checkpoints.length; start += MAX_CHECKPOINTS_PER_CALL) {
      const chunk = checkpoints.slice(start, start + MAX_CHECKPOINTS_PER_CALL);
      const response = await this.unary(
        this.audit.verifyAuditCheckpoints.bind(this.audit),
        { checkpoints: chunk, trail: "" },
        options,
      );
      if (response.valid.length !== chunk.length)
        throw new Error(`the server answered ${response.valid.length} of ${chunk.length} checkpoints`);
      valid.push(...response.valid);
    }
    return valid;
  }
}

/** VerifyAuditCheckpoints' limit per request. */
const MAX_CHECKPOINTS_PER_CALL = 10_000;

function keyFields(keyName: string, options: KeyOptions) {
  return {
    keyName,
    mode: convert.modeToProto(options.mode),
    keySizeBits: options.keySizeBits ?? 0,
    allowUnauthenticated: options.allowUnauthenticated ?? false,
  };
}

/** A decrypt, rewrap or mask request of one format-preserving value, with its version. */
function formattedRequest(keyName: string, ciphertext: FormattedValue, context: Uint8Array | undefined) {
  const ct = asFormatted(ciphertext);
  return { keyName, value: ct.value, context: context ?? new Uint8Array(0), keyVersion: ct.keyVersion };
}

function required(key: Key | undefined): Key {
  if (key === undefined) throw new Error("the server answered without a key");
  return key;
}
