/** Key lifecycle and AuditService: requests and state names locally, then disable, destruction, deletion and retirement against the real server. */
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, type TestContext, test } from "node:test";
import { status } from "@grpc/grpc-js";
import * as cipherd from "../src/index.js";
import { deletionRequest, destructionRequest, retireRequest } from "../src/lifecycle.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const freshName = () => `t-${randomUUID().slice(0, 13)}`;
const HOUR = 3600;

test("lifecycle requests carry whole-second windows, unset ones left to the server", () => {
  assert.deepEqual(destructionRequest("k", new Set([1, 2]), 48 * HOUR), {
    keyName: "k",
    versions: [1, 2],
    pendingWindow: { seconds: 48 * HOUR, nanos: 0 },
  });
  assert.equal(deletionRequest("k", undefined).pendingWindow, undefined);
  const retire = retireRequest("k", 3, { quietPeriodSeconds: 60, dryRun: true });
  assert.deepEqual(retire.quietPeriod, { seconds: 60, nanos: 0 });
  assert.equal(retire.pendingWindow, undefined);
  assert.equal(retire.validateOnly, true);
  assert.throws(() => destructionRequest("k", [1], 1.5), RangeError);
});

test("state names: unspecified reads enabled", () => {
  assert.equal(cipherd.keyStateName(cipherd.KeyState.KEY_STATE_UNSPECIFIED), "enabled");
  assert.equal(cipherd.keyStateName(cipherd.KeyState.KEY_STATE_DELETION_SCHEDULED), "deletion_scheduled");
  assert.equal(cipherd.versionStateName(cipherd.KeyVersionState.KEY_VERSION_STATE_UNSPECIFIED), "enabled");
  assert.equal(cipherd.versionStateName(cipherd.KeyVersionState.KEY_VERSION_STATE_DESTROYED), "destroyed");
});

/** Runs the call; skips the test when the jar predates the RPC. */
async function firstCall<T>(t: TestContext, rpc: string, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof cipherd.CipherdError && e.code === status.UNIMPLEMENTED) {
      t.skip(`the server does not implement ${rpc} yet`);
      return undefined;
    }
    throw e;
  }
}

function near(moment: Date | undefined, seconds: number): boolean {
  return moment !== undefined && Math.abs(moment.getTime() - Date.now() - seconds * 1000) < 120_000;
}

describe("key lifecycle and audit against the server", {
  skip: jar() === undefined && "no server jar: run make build",
}, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("lifecycle"), []);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  test("disable, destroy, cancel and delete each refuse with their own error", async (t) => {
    const name = freshName();
    await c.createKey(name);
    const disabled = await firstCall(t, "KeyAdminService.DisableKey", () => c.disableKey(name));
    if (disabled === undefined) return;
    assert.equal(cipherd.keyStateName(disabled.state), "disabled");
    await assert.rejects(c.encrypt(name, bytes("secret")), cipherd.KeyDisabledError);
    await c.enableKey(name);
    const ciphertext = await c.encrypt(name, bytes("secret"));
    await c.rotateKey(name);

    const key = await c.scheduleKeyVersionDestruction(name, [1], { pendingWindowSeconds: 30 * HOUR });
    assert.equal(cipherd.versionStateName(key.versions[0]!.state), "destruction_scheduled");
    assert.ok(near(key.versions[0]!.destroyTime, 30 * HOUR));
    await assert.rejects(
      c.decrypt(ciphertext),
      (e) =>
        e instanceof cipherd.KeyVersionDestructionScheduledError &&
        !(e instanceof cipherd.DecryptionFailedError) &&
        e.metadata.key === name,
    );
    await assert.rejects(c.scheduleKeyVersionDestruction(name, [2]), cipherd.FailedPreconditionError); // the current version
    await assert.rejects(
      c.scheduleKeyVersionDestruction(name, [1], { pendingWindowSeconds: HOUR }),
      cipherd.CipherdError,
    );
    const restored = await c.cancelKeyVersionDestruction(name, [1]);
    assert.equal(cipherd.versionStateName(restored.versions[0]!.state), "enabled");
    assert.equal(text(await c.decrypt(ciphertext)), "secret");

    const deleting = await c.scheduleKeyDeletion(name);
    assert.equal(cipherd.keyStateName(deleting.state), "deletion_scheduled");
    assert.ok(near(deleting.deleteTime, 7 * 24 * HOUR));
    await assert.rejects(c.decrypt(ciphertext), cipherd.KeyDisabledError);
    await assert.rejects(c.enableKey(name), cipherd.FailedPreconditionError);
    assert.equal(cipherd.keyStateName((await c.cancelKeyDeletion(name)).state), "disabled");
    await c.enableKey(name);
    assert.equal(text(await c.decrypt(ciphertext)), "secret");
  });

  test("retire refuses versions in use, then retires them", async (t) => {
    const name = freshName();
    await c.createKey(name);
    const ciphertext = await c.encrypt(name, bytes("secret"));
    await c.rotateKey(name);
    await c.rotateKey(name);
    await c.decrypt(ciphertext);
    const refusal = await c.retireKeyVersions(name, 3, { dryRun: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (refusal instanceof cipherd.CipherdError && refusal.code === status.UNIMPLEMENTED) {
      t.skip("the server does not implement KeyAdminService.RetireKeyVersions yet");
      return;
    }
    assert.ok(refusal instanceof cipherd.KeyVersionsInUseError, `${String(refusal)}`);
    assert.deepEqual(refusal.versions, [1]);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const plan = await c.retireKeyVersions(name, 3, { quietPeriodSeconds: 1, dryRun: true });
    assert.deepEqual(plan.retiredVersions, [1, 2]);
    assert.ok(near(plan.destroyTime, 7 * 24 * HOUR));
    const done = await c.retireKeyVersions(name, 3, { quietPeriodSeconds: 1, pendingWindowSeconds: 24 * HOUR });
    assert.equal(done.key.policy?.minDecryptionVersion, 3);
    assert.deepEqual(
      done.key.versions.map((v) => cipherd.versionStateName(v.state)),
      ["destruction_scheduled", "destruction_scheduled", "enabled"],
    );
    await assert.rejects(
      c.decrypt(ciphertext),
      (e) => e instanceof cipherd.FailedPreconditionError && !(e instanceof cipherd.DecryptionFailedError),
    );
  });

  test("retire is refused by an inventory with one ciphertext below N, and allowed at or above N", async () => {
    const name = freshName();
    await c.createKey(name);
    await c.rotateKey(name);
    await c.rotateKey(name);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const scanTime = new Date("2026-11-24T08:00:00Z");
    const refusal = await c
      .retireKeyVersions(name, 3, {
        quietPeriodSeconds: 1,
        dryRun: true,
        inventories: [
          { keyName: name, source: "file:a.jsonl#email", versions: { 3: 4 } },
          {
            keyName: name,
            source: "postgres:users.email",
            versions: new Map([
              [2, 1],
              [3, 99],
            ]),
            scanTime,
            itemsScanned: 100,
          },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(refusal instanceof cipherd.KeyVersionsInUseError, `${String(refusal)}`);
    assert.deepEqual(refusal.versions, [2]);
    assert.equal(refusal.source, "postgres:users.email");
    assert.match(refusal.message, /still counts 1 ciphertext under v2/);

    const plan = await c.retireKeyVersions(name, 3, {
      quietPeriodSeconds: 1,
      dryRun: true,
      inventories: [{ keyName: name, source: "postgres:users.email", versions: { 1: 0, 3: 100 }, scanTime }],
    });
    assert.deepEqual(plan.retiredVersions, [1, 2]);
    await assert.rejects(
      c.retireKeyVersions(name, 3, {
        dryRun: true,
        inventories: [{ keyName: "someone-else", source: "db", versions: { 3: 1 } }],
      }),
      cipherd.InvalidArgumentError,
    );
  });

  test("a failed decrypt is use; cancelDestructionOnUse cancels a destruction a call runs into", async () => {
    const name = freshName();
    await c.createKey(name);
    const context = bytes("users.email/7");
    const ciphertext = await c.encrypt(name, bytes("cold row"), { context });
    await c.rotateKey(name);
    await assert.rejects(c.decrypt(ciphertext), cipherd.DecryptionFailedError);
    const census = await c.getKeyCensus(name, { quietPeriodSeconds: 3600 });
    const v1 = census.versions[0];
    assert.ok(v1 !== undefined && v1.version === 1 && v1.inUse);
    assert.equal(v1.usage.failures, 1);
    assert.equal(v1.usage.decryptions, 0);
    assert.equal(v1.usage.indexLookups, 0);
    assert.equal(v1.usage.lastLookupTime, undefined);
    const refusal = await c.retireKeyVersions(name, 2, { quietPeriodSeconds: 3600, dryRun: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(refusal instanceof cipherd.KeyVersionsInUseError && refusal.source === undefined, `${String(refusal)}`);

    const updated = await c.updateKeyPolicy(name, { cancelDestructionOnUse: true });
    assert.equal(updated.policy?.cancelDestructionOnUse, true);
    await c.scheduleKeyVersionDestruction(name, [1]);
    await assert.rejects(c.decrypt(ciphertext, { context }), cipherd.KeyVersionDestructionScheduledError);
    const deadline = Date.now() + 10_000;
    while (cipherd.versionStateName((await c.getKey(name)).versions[0]?.state ?? 0) !== "enabled") {
      assert.ok(Date.now() < deadline, "the destruction was not cancelled");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(text(await c.decrypt(ciphertext, { context })), "cold row");
  });

  test("hashAuditValue is a keyed hash of a server with an audit trail; checkpoints of another audit key fail", async (t) => {
    // A server without --audit-log has no audit key (and a jar without AuditService skips the test).
    const refusal = await c.hashAuditValue("tenant-42").then(
      () => undefined,
      (e: unknown) => e,
    );
    if (refusal instanceof cipherd.CipherdError && refusal.code === status.UNIMPLEMENTED) {
      t.skip("the server does not implement AuditService.HashAuditValue yet");
      return;
    }
    assert.ok(refusal instanceof cipherd.FailedPreconditionError, `${String(refusal)}`);
    const dir = tempDir("audited");
    const audited = await startServer(dir, ["--audit-log", join(dir, "audit.log")]);
    const a = new cipherd.CipherdClient(audited.address);
    try {
      const hash = await a.hashAuditValue("tenant-42");
      assert.match(hash, /^hmac-sha256:[0-9a-f]{64}$/);
      assert.equal(await a.hashAuditValue(bytes("tenant-42")), hash);
      assert.notEqual(await a.hashAuditValue("tenant-43"), hash);
      const checkpoint = {
        seq: 3,
        time: "2026-11-24T08:00:00.000Z",
        prev: "0".repeat(64),
        mac: `hmac-sha256:${"0".repeat(64)}`,
      };
      assert.deepEqual(await a.verifyAuditCheckpoints([checkpoint, checkpoint]), [false, false]);
      assert.deepEqual(await a.verifyAuditCheckpoints([]), []);
    } finally {
      a.close();
      await audited.stop();
    }
  });

  test("auditHead is the trail's anchor: its checkpoint line is in the file, with that hash", async () => {
    const dir = tempDir("anchored");
    const log = join(dir, "audit.log");
    const audited = await startServer(dir, ["--audit-log", log, "--audit-checkpoint-interval", "PT0.05S"]);
    const a = new cipherd.CipherdClient(audited.address);
    try {
      await a.hashAuditValue("tenant-42");
      const deadline = Date.now() + 10_000;
      let head = await a.auditHead();
      while (head === undefined || head.seq < 1) {
        assert.ok(Date.now() < deadline, "no head anchored after a call and 10 s of checkpoints");
        await new Promise((resolve) => setTimeout(resolve, 50));
        head = await a.auditHead();
      }
      const lines = readFileSync(log, "utf8").split("\n");
      const trail = (JSON.parse(lines[0] ?? "{}") as { trail?: string }).trail ?? "";
      assert.notEqual(trail, "", "the start line names its trail");
      assert.equal(head.trail, trail);
      const anchored = lines.find((line) => line.startsWith(`{"type":"checkpoint","seq":${head.seq},`));
      assert.ok(anchored !== undefined, `no checkpoint line at seq ${head.seq}`);
      assert.equal(createHash("sha256").update(anchored).digest("hex"), head.hash);
      assert.equal(head.firstSeq, 0);
      assert.equal(head.files.at(-1)?.name, "audit.log");
      const byName = await a.auditHead(trail); // asking is an audited call: the head may have moved on since
      assert.ok(byName !== undefined && byName.trail === trail && byName.seq >= head.seq, "the head asked by its name");
      assert.equal(await a.auditHead("never-anchored"), undefined);
      await assert.rejects(a.auditHead("x".repeat(257)), cipherd.InvalidArgumentError);
    } finally {
      a.close();
      await audited.stop();
    }
  });
});
