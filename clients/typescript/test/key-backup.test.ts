/**
 * Key backup and restore against a fake KeyAdminService (grpc-js, in process) that backs up as the server does (a
 * KeyBackupFile wrapped for the recipient with RSA-OAEP-SHA-256 and RFC 5649) and unwraps what restoreKey gets
 * with its job's key, so the test sees what the client sent; the real server's round trip is in
 * key-backup-server.test.ts.
 */
import assert from "node:assert/strict";
import {
  constants,
  createDecipheriv,
  createHash,
  generateKeyPairSync,
  type KeyObject,
  privateDecrypt,
} from "node:crypto";
import { after, before, describe, test } from "node:test";
import { type handleUnaryCall, Metadata, Server, ServerCredentials, status } from "@grpc/grpc-js";
import * as cipherd from "../src/index.js";
import {
  type BackupKeyRequest,
  type BackupKeyResponse,
  type CreateImportJobRequest,
  type CreateImportJobResponse,
  type CreateKeyRequest,
  type CreateKeyResponse,
  KeyAdminServiceService,
  KeyBackup,
  KeyBackupFile,
  type RestoreKeyRequest,
  type RestoreKeyResponse,
  type SetKeyExportableRequest,
  type SetKeyExportableResponse,
} from "../src/gen/cipherd/v1/key_admin_service.js";
import { type Key, KeyVersionState } from "../src/gen/cipherd/v1/keys.js";
import { Any } from "../src/gen/google/protobuf/any.js";
import { ErrorInfo } from "../src/gen/google/rpc/error_details.js";
import { Status } from "../src/gen/google/rpc/status.js";

const MATERIAL = Buffer.alloc(32, 0x5a);

function rsaKey(bits: number): { privateKey: KeyObject; publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  return {
    privateKey,
    publicPem: publicKey.export({ type: "spki", format: "pem" }) as string,
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}

const recipient = rsaKey(3072);
const stranger = rsaKey(3072);
const jobKey = rsaKey(2048);

function backedUpKey(): Key {
  const version = (n: number, state: KeyVersionState) => ({
    version: n,
    mode: 0,
    keySizeBits: 256,
    createTime: undefined,
    imported: false,
    legacyCipher: 0,
    legacyIv: 0,
    usage: undefined,
    state,
    destroyTime: undefined,
    fpeFormat: undefined,
    transitKdf: 0,
  });
  return {
    keyName: "orders",
    currentVersion: 2,
    versions: [
      version(1, KeyVersionState.KEY_VERSION_STATE_DESTROYED),
      version(2, KeyVersionState.KEY_VERSION_STATE_ENABLED),
    ],
    policy: undefined,
    state: 0,
    deleteTime: undefined,
    exportable: true,
  };
}

function notExportable() {
  const info = ErrorInfo.fromPartial({
    reason: "KEY_NOT_EXPORTABLE",
    domain: "cipherd.io",
    metadata: { key: "orders" },
  });
  const details = Status.encode(
    Status.fromPartial({
      code: status.FAILED_PRECONDITION,
      message: "key 'orders' is not exportable",
      details: [
        Any.fromPartial({
          typeUrl: "type.googleapis.com/google.rpc.ErrorInfo",
          value: ErrorInfo.encode(info).finish(),
        }),
      ],
    }),
  ).finish();
  const metadata = new Metadata();
  metadata.set("grpc-status-details-bin", Buffer.from(details));
  return { code: status.FAILED_PRECONDITION, details: "key 'orders' is not exportable", metadata };
}

/** A backup file of backedUpKey for the PEM public key, as the server makes one. */
function backupFileFor(publicPem: string): Uint8Array {
  const spki = Buffer.from(publicPem.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, ""), "base64");
  const sha = createHash("sha256").update(spki).digest();
  const at = new Date("2026-11-27T10:00:00Z");
  const inner = KeyBackup.encode({
    key: backedUpKey(),
    materials: [{ version: 2, keyMaterial: MATERIAL, legacyFixedIv: new Uint8Array(0) }],
    recipientKeySha256: sha,
    backupTime: at,
  }).finish();
  return KeyBackupFile.encode({
    format: 1,
    keyName: "orders",
    recipientKeySha256: sha,
    backupTime: at,
    wrappingAlgorithm: 1,
    wrappedKeyBackup: cipherd.wrapKeyMaterial(publicPem, inner),
  }).finish();
}

class Fake {
  exportable = false;
  created: CreateKeyRequest | undefined;
  restored: KeyBackup | undefined;
  restoredNames: string[] = [];
  jobs: string[] = [];
}

async function serveFake(fake: Fake): Promise<{ server: Server; address: string }> {
  const server = new Server();
  const createKey: handleUnaryCall<CreateKeyRequest, CreateKeyResponse> = (call, callback) => {
    fake.created = call.request;
    callback(null, { key: { ...backedUpKey(), keyName: call.request.keyName, exportable: call.request.exportable } });
  };
  const setKeyExportable: handleUnaryCall<SetKeyExportableRequest, SetKeyExportableResponse> = (_call, callback) => {
    fake.exportable = true;
    callback(null, { key: backedUpKey() });
  };
  const backupKey: handleUnaryCall<BackupKeyRequest, BackupKeyResponse> = (call, callback) => {
    if (!fake.exportable) {
      callback(notExportable());
      return;
    }
    callback(null, { backupFile: backupFileFor(call.request.recipientPublicKeyPem), key: backedUpKey() });
  };
  const createImportJob: handleUnaryCall<CreateImportJobRequest, CreateImportJobResponse> = (call, callback) => {
    fake.jobs.push(call.request.keyName);
    callback(null, {
      importJob: {
        importJobId: "job-1",
        keyName: call.request.keyName,
        wrappingAlgorithm: 1,
        publicKeyPem: jobKey.publicPem,
        expireTime: new Date(Date.now() + 3600_000),
      },
    });
  };
  const restoreKey: handleUnaryCall<RestoreKeyRequest, RestoreKeyResponse> = (call, callback) => {
    fake.restoredNames.push(call.request.keyName);
    const blob = Buffer.from(call.request.wrappedKeyBackup);
    const ephemeral = privateDecrypt(
      { key: jobKey.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      blob.subarray(0, 256),
    );
    const kwp = createDecipheriv("id-aes256-wrap-pad", ephemeral, Buffer.from("a65959a6", "hex"));
    fake.restored = KeyBackup.decode(Buffer.concat([kwp.update(blob.subarray(256)), kwp.final()]));
    callback(null, { key: fake.restored.key });
  };
  server.addService(KeyAdminServiceService, {
    createKey,
    setKeyExportable,
    backupKey,
    createImportJob,
    restoreKey,
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { server, address: `127.0.0.1:${port}` };
}

describe("key backup against a fake server", () => {
  let fake: Fake;
  let server: Server;
  let c: cipherd.CipherdClient;
  before(async () => {
    fake = new Fake();
    const served = await serveFake(fake);
    server = served.server;
    c = new cipherd.CipherdClient(served.address, { insecure: true, timeoutMs: 10_000 });
  });
  after(() => {
    c?.close();
    server?.forceShutdown();
  });

  test("a key not exportable is refused; once set, it backs up and restores through an import job", async () => {
    await assert.rejects(c.backupKey("orders", recipient.publicPem), cipherd.KeyNotExportableError);
    assert.equal((await c.setKeyExportable("orders")).exportable, true);
    const backup = await c.backupKey("orders", recipient.publicPem);
    assert.equal(backup.key.keyName, "orders");
    assert.equal(Buffer.from(backup.file).includes(MATERIAL), false);
    const restored = await c.restoreKeyBackup(backup.file, recipient.privatePem);
    assert.equal(restored.versions[0]?.state, KeyVersionState.KEY_VERSION_STATE_DESTROYED);
    assert.deepEqual(fake.jobs, ["orders"]);
    assert.deepEqual(Buffer.from(fake.restored?.materials[0]?.keyMaterial ?? []), MATERIAL);
    assert.equal(fake.restored?.key?.keyName, "orders");
    assert.deepEqual(fake.restoredNames, ["orders"]);
  });

  test("createKey sends exportable", async () => {
    const key = await c.createKey("k", { exportable: true });
    assert.equal(fake.created?.exportable, true);
    assert.equal(key.exportable, true);
  });
});

describe("openKeyBackup", () => {
  const file = backupFileFor(recipient.publicPem);
  const edited = (change: (f: KeyBackupFile) => void) => {
    const header = KeyBackupFile.decode(file);
    header.wrappedKeyBackup = Buffer.from(header.wrappedKeyBackup);
    change(header);
    return KeyBackupFile.encode(header).finish();
  };
  const cases: [string, Uint8Array, string, RegExp][] = [
    ["another recipient", file, stranger.privatePem, /made for another recipient key/],
    [
      "a flipped wrap byte",
      edited((f) => {
        f.wrappedKeyBackup[f.wrappedKeyBackup.length - 3]! ^= 1;
      }),
      recipient.privatePem,
      /does not unwrap/,
    ],
    [
      "a flipped RSA byte",
      edited((f) => {
        f.wrappedKeyBackup[5]! ^= 1;
      }),
      recipient.privatePem,
      /does not unwrap/,
    ],
    [
      "a renamed header",
      edited((f) => {
        f.keyName = "payroll";
      }),
      recipient.privatePem,
      /does not match/,
    ],
    [
      "a later header time",
      edited((f) => {
        f.backupTime = new Date();
      }),
      recipient.privatePem,
      /does not match/,
    ],
    ["no backup", new Uint8Array([1, 2, 3]), recipient.privatePem, /format 1/],
  ];
  for (const [name, bytes, identity, says] of cases) {
    test(`refuses ${name}`, () => {
      assert.throws(
        () => cipherd.openKeyBackup(bytes, identity),
        (e: Error) => e instanceof cipherd.KeyBackupUnopenableError && says.test(e.message),
      );
    });
  }

  test("opens for its recipient, and wipe zeroes the backup", () => {
    const opened = cipherd.openKeyBackup(file, recipient.privatePem);
    assert.equal(opened.key.keyName, "orders");
    assert.ok(Buffer.from(opened.keyBackup).includes(MATERIAL));
    opened.wipe();
    assert.ok(opened.keyBackup.every((b) => b === 0));
  });
});
