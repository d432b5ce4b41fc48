/** Per-version usage in getKey, the version census and the rotation policy fields, against the real server. */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { policyToProto } from "../src/keys.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const freshName = () => `t-${randomUUID().slice(0, 13)}`;
const counts = (u: cipherd.KeyVersionUsage) => [u.encryptions, u.decryptions, u.rewraps];

test("autoRotatePeriod is taken in seconds or as a Duration; fractions and negatives are refused", () => {
  assert.deepEqual(policyToProto({ autoRotatePeriod: 3600, maxEncryptionsPerVersion: 5 }).autoRotatePeriod, {
    seconds: 3600,
    nanos: 0,
  });
  assert.deepEqual(policyToProto({ autoRotatePeriod: { seconds: 60, nanos: 0 } }).autoRotatePeriod, {
    seconds: 60,
    nanos: 0,
  });
  assert.equal(policyToProto({}).autoRotatePeriod, undefined);
  for (const bad of [1.5, -60]) assert.throws(() => policyToProto({ autoRotatePeriod: bad }), RangeError);
});

describe("usage and census", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("usage"), []);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  test("getKey counts each version's encryptions, decryptions and rewraps at once", async () => {
    const name = freshName();
    const before = Date.now() - 5000;
    const created = await c.createKey(name);
    assert.equal(cipherd.usageOf(created.versions[0]!).lastUsedTime, undefined);
    const texts = await Promise.all([1, 2, 3].map(() => c.encrypt(name, bytes("x"))));
    await c.decrypt(texts[0]!);
    await c.rotateKey(name);
    await c.reEncrypt(texts[1]!);
    const key = await c.getKey(name);
    const [first, second] = key.versions.map(cipherd.usageOf);
    assert.deepEqual(counts(first!), [3, 2, 1]);
    assert.deepEqual(counts(second!), [1, 0, 0]);
    assert.ok(first!.lastUsedTime instanceof Date && first!.lastUsedTime.getTime() >= before);
  });

  test("streams count too: usage after encryptStream and decryptStream", async () => {
    const name = freshName();
    await c.createKey(name);
    const encrypted = [];
    for await (const r of c.encryptStream(
      name,
      Array.from({ length: 20 }, (_, i) => bytes(String(i))),
    ))
      encrypted.push(r.unwrap());
    for await (const r of c.decryptStream(encrypted.slice(0, 7))) assert.ok(r.ok);
    assert.deepEqual(counts(cipherd.usageOf((await c.getKey(name)).versions[0]!)), [20, 7, 0]);
  });

  test("the census says which versions still see traffic and how far the minimum can rise", async () => {
    const name = freshName();
    await c.createKey(name);
    await c.rotateKey(name);
    await c.rotateKey(name);
    await c.encrypt(name, bytes("on v3"));
    await c.encrypt(name, bytes("a subject's, its key wrapped under v3"), { subject: "census-subject" });
    let census = await c.getKeyCensus(name, { quietPeriodSeconds: 3600 });
    assert.deepEqual(
      census.versions.map((v) => [v.version, v.inUse, v.subjectKeys]),
      [
        [1, false, 0],
        [2, false, 0],
        [3, true, 1],
      ],
    );
    assert.equal(census.safeMinDecryptionVersion, 3);
    assert.equal(census.key.currentVersion, 3);

    await c.encrypt(name, bytes("on v2"), { keyVersion: 2 });
    census = await c.getKeyCensus(name);
    assert.deepEqual(
      census.versions.map((v) => v.inUse),
      [false, true, true],
    );
    assert.equal(census.safeMinDecryptionVersion, 2);
    assert.equal(census.versions[1]!.usage.encryptions, 1);

    await c.updateKeyPolicy(name, { minDecryptionVersion: 2 });
    assert.deepEqual(
      (await c.getKeyCensus(name)).versions.map((v) => v.version),
      [2, 3],
    );
  });

  test("the rotation policy fields round-trip; a period under a minute is refused", async () => {
    const name = freshName();
    const created = await c.createKey(name, {
      policy: { autoRotatePeriod: 90 * 86400, maxEncryptionsPerVersion: 1_000_000 },
    });
    assert.deepEqual(created.policy?.autoRotatePeriod, { seconds: 90 * 86400, nanos: 0 });
    assert.equal(created.policy?.maxEncryptionsPerVersion, 1_000_000);
    const updated = await c.updateKeyPolicy(name, { autoRotatePeriod: 60 });
    assert.deepEqual(
      [updated.policy?.autoRotatePeriod, updated.policy?.maxEncryptionsPerVersion],
      [{ seconds: 60, nanos: 0 }, 0],
    );
    assert.deepEqual((await c.getKey(name)).policy, updated.policy);
    await assert.rejects(c.updateKeyPolicy(name, { autoRotatePeriod: 59 }), cipherd.InvalidArgumentError);
  });
});
