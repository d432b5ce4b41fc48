/**
 * encryptStream, decryptStream and reEncryptStream against the real server: order, per-item errors,
 * resumeAfter, the input read only as answers are read, and streams broken mid-way (by an abort, by
 * stopping the server) resumed so that every item is answered exactly once.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const freshName = () => `t-${randomUUID().slice(0, 13)}`;

async function collect<T>(results: AsyncIterable<cipherd.ItemResult<T>>): Promise<cipherd.ItemResult<T>[]> {
  const all: cipherd.ItemResult<T>[] = [];
  for await (const r of results) all.push(r);
  return all;
}

/** Runs a stream to its end or break, returning what it answered and the error it broke with. */
async function untilBroken<T>(
  results: AsyncIterable<cipherd.ItemResult<T>>,
  onResult: (count: number) => unknown = () => {},
) {
  const answered: cipherd.ItemResult<T>[] = [];
  try {
    for await (const r of results) {
      answered.push(r);
      await onResult(answered.length);
    }
  } catch (e) {
    assert.ok(e instanceof cipherd.CipherdError, String(e));
    return { answered, error: e };
  }
  return { answered, error: undefined };
}

const rows = (n: number, prefix = "row") =>
  Array.from({ length: n }, (_, i) => ({
    plaintext: bytes(`${prefix} ${i}`),
    context: bytes("t"),
    reference: `${prefix}-${i}`,
  }));

describe("item streams", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("item-streams"), []);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  test("reEncryptStream rewraps a context-bound column with each row's context; without, the error says to check it", async () => {
    const name = freshName();
    await c.createKey(name);
    const contextOf = (id: number) => bytes(`users.email/${id}`);
    const column = [];
    for (const id of [1, 2, 3])
      column.push({
        id,
        ciphertext: await c.encrypt(name, bytes(`user${id}@example.com`), { context: contextOf(id) }),
      });
    await c.rotateKey(name);

    const without = await collect(
      c.reEncryptStream(column.map((r) => ({ ciphertext: r.ciphertext, reference: String(r.id) }))),
    );
    for (const r of without) {
      assert.ok(r.error instanceof cipherd.DecryptionFailedError, String(r.error));
      assert.match(r.error.message, /check that the context is the one given at encryption/);
    }

    const rewrapped = await collect(
      c.reEncryptStream(
        column.map((r) => ({ ciphertext: r.ciphertext, context: contextOf(r.id), reference: String(r.id) })),
      ),
    );
    for (const r of rewrapped) {
      const id = Number(r.reference);
      const { ciphertext, keyVersion, sourceKeyVersion } = r.unwrap();
      assert.deepEqual([sourceKeyVersion, keyVersion], [1, 2]);
      assert.equal(text(await c.decrypt(ciphertext, { context: contextOf(id) })), `user${id}@example.com`);
      await assert.rejects(c.decrypt(ciphertext), cipherd.DecryptionFailedError);
    }
  });

  test("encryptStream then decryptStream keep order and fail items alone", async () => {
    const name = freshName();
    await c.createKey(name);
    const items: cipherd.EncryptItem[] = rows(30, "r");
    items[7] = { plaintext: bytes("x"), reference: "r-7", keyName: `${name}-missing` };
    async function* source() {
      yield* items;
    }
    const encrypted = await collect(c.encryptStream(name, source()));
    assert.deepEqual(
      encrypted.map((r) => r.reference),
      items.map((i) => i.reference),
    );
    assert.ok(encrypted[7]!.error instanceof cipherd.NotFoundError);
    assert.ok(
      encrypted.every(
        (r, i) => i === 7 || (r.ok && r.keyVersion === 1 && cipherd.parseCiphertext(r.unwrap()).keyName === name),
      ),
    );

    const texts: cipherd.CiphertextItem[] = encrypted
      .filter((r) => r.ok)
      .map((r) => ({ ciphertext: r.unwrap(), context: bytes("t"), reference: r.reference }));
    texts[3] = { ...texts[3]!, context: bytes("other") };
    texts.push({ ciphertext: "<x/v1:gcm>AAAA", reference: "malformed" });
    const decrypted = await collect(c.decryptStream(texts));
    assert.deepEqual(
      decrypted.map((r) => r.reference),
      texts.map((t) => t.reference),
    );
    assert.ok(decrypted[3]!.error instanceof cipherd.DecryptionFailedError);
    assert.ok(decrypted.at(-1)!.error instanceof cipherd.InvalidArgumentError);
    assert.equal(text(decrypted[0]!.unwrap()), "r 0");
    assert.equal(text(decrypted[10]!.unwrap()), "r 11");
  });

  test("resumeAfter skips the items through that reference; an unknown or empty one is refused", async () => {
    const name = freshName();
    await c.createKey(name);
    const items = Array.from({ length: 10 }, (_, i) => ({ plaintext: new Uint8Array([i]), reference: `id-${i}` }));
    const results = await collect(c.encryptStream(name, items, { resumeAfter: "id-3" }));
    assert.deepEqual(
      results.map((r) => r.reference),
      ["id-4", "id-5", "id-6", "id-7", "id-8", "id-9"],
    );
    assert.deepEqual([...(await c.decrypt(results[0]!.unwrap()))], [4]);
    await assert.rejects(collect(c.encryptStream(name, items, { resumeAfter: "id-99" })), RangeError);
    await assert.rejects(collect(c.encryptStream(name, items, { resumeAfter: "" })), TypeError);
  });

  test("an error thrown by the items comes after the answers to the items before it", async () => {
    const name = freshName();
    await c.createKey(name);
    const failure = new Error("the export file is unreadable");
    function* source() {
      for (let i = 0; i < 5; i++) yield { plaintext: bytes("row"), reference: String(i) };
      throw failure;
    }
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const r of c.encryptStream(name, source())) {
          assert.ok(r.ok);
          seen.push(r.reference);
        }
      },
      (e) => e === failure,
    );
    assert.deepEqual(seen, ["0", "1", "2", "3", "4"]);
  });

  test("the input is read only as answers are read: at most STREAM_WINDOW items ahead", async () => {
    const name = freshName();
    await c.createKey(name);
    const ciphertext = await c.encrypt(name, bytes("x"));
    let pulled = 0;
    function* endless() {
      for (let i = 0; ; i++) {
        pulled++;
        yield { ciphertext, reference: String(i) };
      }
    }
    let read = 0;
    let mostAhead = 0;
    for await (const r of c.decryptStream(endless())) {
      assert.equal(text(r.unwrap()), "x");
      if (++read % 100 === 0) await new Promise((done) => setTimeout(done, 20));
      mostAhead = Math.max(mostAhead, pulled - read);
      if (read === 2000) break;
    }
    assert.ok(mostAhead <= cipherd.STREAM_WINDOW + 1, `the input was read ${mostAhead} items ahead`);
    assert.ok(mostAhead >= 10, "sending did not run ahead of reading at all");
  });

  test("a stream aborted mid-way and resumed after lastReference answers every item exactly once, in order", async () => {
    const name = freshName();
    await c.createKey(name);
    const items = rows(3000);
    const controller = new AbortController();
    const first = await untilBroken(
      c.encryptStream(name, items, { signal: controller.signal }),
      (n) => n === 700 && controller.abort(),
    );
    assert.ok(first.error instanceof cipherd.CancelledError, String(first.error));
    // An answer already received when the abort lands may still be delivered; lastReference names the last one that was.
    assert.ok(first.answered.length >= 700 && first.answered.length < 1000, `${first.answered.length} answered`);
    assert.equal(first.error.lastReference, first.answered.at(-1)!.reference);

    const resumed = await collect(c.encryptStream(name, items, { resumeAfter: first.error.lastReference }));
    const everything = [...first.answered, ...resumed];
    assert.deepEqual(
      everything.map((r) => r.reference),
      items.map((i) => i.reference),
    );
    const decrypted = await collect(
      c.decryptStream(everything.map((r) => ({ ciphertext: r.unwrap(), context: bytes("t"), reference: r.reference }))),
    );
    assert.deepEqual(
      decrypted.map((r) => text(r.unwrap())),
      items.map((i) => text(i.plaintext)),
    );
  });

  test("a broken stream before any answer has no lastReference, unless resuming", async () => {
    async function* stalled() {
      await new Promise((r) => setTimeout(r, 60_000).unref());
      yield "never";
    }
    const plain = await untilBroken(c.decryptStream(stalled(), { timeoutMs: 300 }));
    // The deadline ends the call on both sides: the client's timer says DEADLINE_EXCEEDED, but on a busy
    // machine the server's own deadline can reset the stream first, which grpc-js reports as CANCELLED.
    assert.ok(
      plain.error instanceof cipherd.DeadlineExceededError || plain.error instanceof cipherd.CancelledError,
      String(plain.error),
    );
    assert.equal(plain.error.lastReference, undefined);
    async function* stalledAfterSkip() {
      yield { ciphertext: "skipped", reference: "a" };
      yield* stalled();
    }
    const resuming = await untilBroken(c.decryptStream(stalledAfterSkip(), { timeoutMs: 300, resumeAfter: "a" }));
    assert.equal(resuming.error?.lastReference, "a");
  });

  test("a stream that is never iterated opens no call and reads no item", async () => {
    let pulled = 0;
    function* counted() {
      pulled++;
      yield bytes("x");
    }
    c.encryptStream("never-called", counted());
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(pulled, 0);
  });
});

test("a stream broken by stopping the server resumes on a new one over the same key store", {
  skip: jar() === undefined && "no server jar: run make build",
}, async () => {
  const workdir = tempDir("stream-restart");
  // Items large enough that the transport's buffers hold only a few hundred, so the server is still
  // answering when it stops rather than done with answers the client has yet to read.
  const ITEMS = 2500;
  const plaintext = (i: number) => bytes(`row ${i};`.padEnd(16 * 1024, "."));
  const items = () =>
    Array.from({ length: ITEMS }, (_, i) => ({ plaintext: plaintext(i), context: bytes("t"), reference: `row-${i}` }));
  const first = await startServer(workdir, []);
  let broken: Awaited<ReturnType<typeof untilBroken<string>>>;
  try {
    const c = new cipherd.CipherdClient(first.address);
    try {
      await c.createKey("resumed");
      let stopping: Promise<void> | undefined;
      // Once the stop is asked for, read slowly so the stream is still open when the grace period ends.
      broken = await untilBroken(c.encryptStream("resumed", items()), (n) => {
        if (n === 500) stopping = first.stop();
        return stopping && new Promise((r) => setTimeout(r, 2));
      });
      await stopping;
    } finally {
      c.close();
    }
  } finally {
    await first.stop();
  }
  assert.ok(
    broken.error !== undefined && broken.answered.length < ITEMS,
    `the stream was not broken mid-way (${broken.answered.length} answered)`,
  );
  assert.ok(broken.answered.length >= 500);
  assert.ok(
    broken.error instanceof cipherd.UnavailableError || broken.error instanceof cipherd.CancelledError,
    String(broken.error),
  );
  assert.equal(broken.error.lastReference, broken.answered.at(-1)!.reference);

  const second = await startServer(workdir, []);
  const c = new cipherd.CipherdClient(second.address);
  try {
    const resumed = await collect(c.encryptStream("resumed", items(), { resumeAfter: broken.error.lastReference }));
    const everything = [...broken.answered, ...resumed];
    assert.deepEqual(
      everything.map((r) => r.reference),
      items().map((i) => i.reference),
    );
    const decrypted = await collect(
      c.decryptStream(everything.map((r) => ({ ciphertext: r.unwrap(), context: bytes("t"), reference: r.reference }))),
    );
    assert.ok(decrypted.every((r, i) => Buffer.from(r.unwrap()).equals(plaintext(i))));
  } finally {
    c.close();
    await second.stop();
  }
});
