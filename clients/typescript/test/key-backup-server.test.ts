/**
 * Key backup against the real server: an exportable key under two versions backed up and restored into a second
 * server (its own data dir, no plaintext import), where both versions' data decrypts; a second restore is refused,
 * and a file opens only with its recipient's private key. The fakes of key-backup.test.ts see what is sent.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

function rsaKey(bits: number): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  return {
    publicPem: publicKey.export({ type: "spki", format: "pem" }) as string,
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}

const recipient = rsaKey(3072);
const stranger = rsaKey(3072);

describe("key backup against the real server", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let source: RunningServer;
  let target: RunningServer;
  let c: cipherd.CipherdClient;
  let other: cipherd.CipherdClient;
  before(async () => {
    [source, target] = await Promise.all([
      startServer(tempDir("backup-source"), [], undefined, false),
      startServer(tempDir("backup-target"), [], undefined, false),
    ]);
    c = new cipherd.CipherdClient(source.address);
    other = new cipherd.CipherdClient(target.address);
  });
  after(async () => {
    c?.close();
    other?.close();
    await Promise.all([source?.stop(), target?.stop()]);
  });

  test("an exportable key moves to another server, where its data decrypts; a second restore is refused", async () => {
    const name = `t-${randomUUID().slice(0, 13)}`;
    await c.createKey(name, { exportable: true });
    const first = await c.encrypt(name, Buffer.from("first"));
    await c.rotateKey(name);
    const second = await c.encrypt(name, Buffer.from("second"));
    const backup = await c.backupKey(name, recipient.publicPem);
    const restored = await other.restoreKeyBackup(backup.file, recipient.privatePem);
    assert.equal(restored.currentVersion, 2);
    assert.equal(restored.exportable, true);
    assert.equal(Buffer.from(await other.decrypt(first)).toString(), "first");
    assert.equal(Buffer.from(await other.decrypt(second)).toString(), "second");
    await assert.rejects(other.restoreKeyBackup(backup.file, recipient.privatePem), cipherd.AlreadyExistsError);
    assert.throws(() => cipherd.openKeyBackup(backup.file, stranger.privatePem), cipherd.KeyBackupUnopenableError);
  });
});
