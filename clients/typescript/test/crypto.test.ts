/** CryptoService and KeyAdminService against the real server: every RPC, error kinds, streams, cancellation, deadlines. */
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const freshName = () => `t-${randomUUID().slice(0, 13)}`;

describe("against a plaintext server", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("plain"), ["--demo-key", "demo"]);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  test("encrypt and decrypt round trip with a context", async () => {
    const ciphertext = await c.encrypt("demo", bytes("card 4111"), { context: bytes("order-7") });
    const envelope = cipherd.parseCiphertext(ciphertext);
    assert.deepEqual([envelope.keyName, envelope.keyVersion, envelope.mode], ["demo", 1, "gcm"]);
    assert.equal(text(await c.decrypt(ciphertext, { context: bytes("order-7") })), "card 4111");
  });

  test("decrypt with another context fails without saying why", async () => {
    const ciphertext = await c.encrypt("demo", bytes("secret"), { context: bytes("a") });
    await assert.rejects(c.decrypt(ciphertext, { context: bytes("b") }), (e: unknown) => {
      assert.ok(e instanceof cipherd.DecryptionFailedError);
      assert.equal(e.reason, "DECRYPTION_FAILED");
      assert.equal(e.details, "decryption failed");
      assert.ok(!e.message.includes(ciphertext.slice(ciphertext.indexOf(">") + 1)));
      return true;
    });
  });

  test("a malformed ciphertext is InvalidArgument, not a decryption failure", async () => {
    await assert.rejects(
      c.decrypt("<demo/v01:gcm>AAAA"),
      (e: unknown) =>
        e instanceof cipherd.InvalidArgumentError &&
        !(e instanceof cipherd.DecryptionFailedError) &&
        /version/.test(e.details),
    );
  });

  test("an unknown key is NotFound", async () => {
    await assert.rejects(c.encrypt(freshName(), bytes("x")), cipherd.NotFoundError);
    await assert.rejects(
      c.getKey(freshName()),
      (e: unknown) => e instanceof cipherd.NotFoundError && e.reason === "KEY_NOT_FOUND",
    );
  });

  test("create, rotate, get, reEncrypt and inspect", async () => {
    const name = freshName();
    const created = await c.createKey(name, { mode: "cbc", keySizeBits: 128, allowUnauthenticated: true });
    assert.equal(created.versions[0]?.keySizeBits, 128);
    const old = await c.encrypt(name, bytes("payload"));
    assert.equal((await c.rotateKey(name, { mode: "gcm", keySizeBits: 256 })).currentVersion, 2);
    assert.deepEqual(
      (await c.getKey(name)).versions.map((v) => v.version),
      [1, 2],
    );
    const seen = await c.inspect(old);
    assert.deepEqual(
      [seen.keyName, seen.keyVersion, seen.mode, seen.currentVersion, seen.behindCurrent],
      [name, 1, "cbc", 2, true],
    );
    const rewrapped = await c.reEncrypt(old);
    assert.deepEqual([rewrapped.sourceKeyVersion, rewrapped.keyVersion], [1, 2]);
    assert.equal(cipherd.parseCiphertext(rewrapped.ciphertext).mode, "gcm");
    assert.equal(text(await c.decrypt(rewrapped.ciphertext)), "payload");
  });

  test("admin errors: AlreadyExists, InvalidArgument, FailedPrecondition", async () => {
    const name = freshName();
    await c.createKey(name);
    await assert.rejects(c.createKey(name), cipherd.AlreadyExistsError);
    await assert.rejects(c.createKey("Not A Name"), cipherd.InvalidArgumentError);
    await assert.rejects(c.createKey(freshName(), { mode: "ecb" }), cipherd.InvalidArgumentError);
    await assert.rejects(
      c.updateKeyPolicy(name, { minDecryptionVersion: 2, minEncryptionVersion: 0, allowEcbEncryption: false }),
      cipherd.FailedPreconditionError,
    );
    const old = await c.encrypt(name, bytes("x"));
    await c.rotateKey(name);
    const updated = await c.updateKeyPolicy(name, {
      minDecryptionVersion: 2,
      minEncryptionVersion: 0,
      allowEcbEncryption: false,
    });
    assert.equal(updated.policy?.minDecryptionVersion, 2);
    await assert.rejects(c.decrypt(old), cipherd.FailedPreconditionError);
  });

  test("importKey decrypts what it encrypts; listKeys pages through every key", async () => {
    const name = freshName();
    const key = await c.importKey(name, randomBytes(32), { mode: "chacha" });
    assert.equal(key.versions.at(-1)?.imported, true);
    assert.equal(text(await c.decrypt(await c.encrypt(name, bytes("imported")))), "imported");
    const listed: string[] = [];
    for await (const k of c.listKeys({ pageSize: 1 })) listed.push(k.keyName);
    assert.deepEqual(listed, [...listed].sort());
    assert.ok(listed.includes(name) && listed.includes("demo"));
  });

  test("batches keep every item in order with its own error", async () => {
    const name = freshName();
    await c.createKey(name);
    const encrypted = await c.encryptBatch(name, [
      { plaintext: bytes("one"), reference: "1" },
      { plaintext: bytes("two"), context: bytes("ctx"), reference: "2" },
    ]);
    assert.deepEqual(
      encrypted.map((r) => [r.reference, r.ok]),
      [
        ["1", true],
        ["2", true],
      ],
    );
    const [good, bound] = encrypted.map((r) => r.unwrap()) as [string, string];
    const decrypted = await c.decryptBatch([
      { ciphertext: good, reference: "good" },
      { ciphertext: bound, context: bytes("wrong"), reference: "tampered" },
      { ciphertext: "<demo/v1:gcm>not base64!", reference: "malformed" },
      { ciphertext: good.replace(name, "no-such-key"), reference: "missing" },
    ]);
    assert.deepEqual(
      decrypted.map((r) => r.reference),
      ["good", "tampered", "malformed", "missing"],
    );
    assert.equal(text(decrypted[0]!.unwrap()), "one");
    assert.ok(decrypted[1]!.error instanceof cipherd.DecryptionFailedError);
    assert.equal(decrypted[1]!.error.reason, "DECRYPTION_FAILED");
    assert.ok(decrypted[2]!.error instanceof cipherd.InvalidArgumentError);
    assert.throws(
      () => decrypted[3]!.unwrap(),
      (e: unknown) => e instanceof cipherd.NotFoundError && e.reason === "KEY_NOT_FOUND",
    );
    const target = freshName();
    await c.createKey(target);
    const moved = await c.reEncryptBatch([good, "garbage"], { keyName: target });
    assert.equal(cipherd.parseCiphertext(moved[0]!.unwrap().ciphertext).keyName, target);
    assert.ok(moved[1]!.error instanceof cipherd.InvalidArgumentError);
  });

  test("a stream answers every item in order, from an async iterable", async () => {
    const name = freshName();
    await c.createKey(name);
    const texts = await Promise.all(Array.from({ length: 40 }, (_, i) => c.encrypt(name, bytes(String(i)))));
    await c.rotateKey(name);
    async function* items() {
      for (const [i, t] of texts.entries()) yield { ciphertext: i === 17 ? "bad" : t, reference: String(i) };
    }
    const results: cipherd.ItemResult<cipherd.Rewrapped>[] = [];
    for await (const r of c.reEncryptStream(items())) results.push(r);
    assert.deepEqual(
      results.map((r) => r.reference),
      texts.map((_, i) => String(i)),
    );
    assert.ok(results[17]!.error instanceof cipherd.InvalidArgumentError);
    assert.ok(results.filter((_, i) => i !== 17).every((r) => r.unwrap().keyVersion === 2));
    assert.equal(text(await c.decrypt(results[3]!.unwrap().ciphertext)), "3");
  });

  test("a large stream from a sync iterable is paced, not buffered whole", async () => {
    const ciphertext = await c.encrypt("demo", bytes("x"));
    let count = 0;
    for await (const r of c.reEncryptStream(Array.from({ length: 2000 }, () => ciphertext))) {
      assert.ok(r.ok);
      count++;
    }
    assert.equal(count, 2000);
  });

  test("leaving a stream early cancels it and stops reading the items", async () => {
    const ciphertext = await c.encrypt("demo", bytes("x"));
    let pulled = 0;
    function* endless() {
      for (;;) {
        pulled++;
        yield ciphertext;
      }
    }
    let n = 0;
    for await (const r of c.reEncryptStream(endless())) {
      assert.ok(r.ok);
      if (++n === 5) break;
    }
    await new Promise((r) => setTimeout(r, 300));
    const afterLeaving = pulled;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(pulled, afterLeaving, "items are still pulled after the loop was left");
    assert.equal(text(await c.decrypt(await c.encrypt("demo", bytes("fine")))), "fine");
  });

  test("aborting cancels a stream and a unary call", async () => {
    const ciphertext = await c.encrypt("demo", bytes("x"));
    const controller = new AbortController();
    async function* stalled() {
      yield ciphertext;
      await new Promise((r) => setTimeout(r, 60_000).unref());
    }
    await assert.rejects(async () => {
      for await (const r of c.reEncryptStream(stalled(), { signal: controller.signal })) {
        assert.ok(r.ok);
        controller.abort();
      }
    }, cipherd.CancelledError);
    await assert.rejects(c.encrypt("demo", bytes("x"), { signal: AbortSignal.abort() }), cipherd.CancelledError);
  });

  test("deadlines: a stalled stream and a unary call past their deadline", async () => {
    async function* stalled() {
      await new Promise((r) => setTimeout(r, 60_000).unref());
      yield "never";
    }
    const started = Date.now();
    await assert.rejects(async () => {
      for await (const _ of c.reEncryptStream(stalled(), { timeoutMs: 500 })) assert.fail("no item was sent");
    }, cipherd.DeadlineExceededError);
    assert.ok(Date.now() - started < 10_000);
    await assert.rejects(
      c.encrypt("demo", new Uint8Array(1_000_000), { timeoutMs: 0.1 }),
      cipherd.DeadlineExceededError,
    );
  });
});

test("nobody listening is Unavailable", async () => {
  const port = await new Promise<number>((ok) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
  const c = new cipherd.CipherdClient(`127.0.0.1:${port}`, { timeoutMs: 2000 });
  try {
    await assert.rejects(c.encrypt("demo", bytes("x")), cipherd.UnavailableError);
  } finally {
    c.close();
  }
});
