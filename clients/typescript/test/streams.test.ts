/** encryptStream and decryptStream with a stand-in for cipherd: round trips, backpressure, errors, aborts. */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Readable, Writable } from "node:stream";
import { test } from "node:test";
import { decryptStream, encryptStream } from "../src/file/streams.js";
import { CancelledError, DecryptionFailedError, InvalidFileError } from "../src/index.js";
import { FakeKeys } from "./fake-keys.js";

const MiB = 1024 * 1024;

/** A Writable that keeps what it is given, taking a turn of the event loop per write when slow. */
function sink(slow = false, onWrite: (n: number) => void = () => {}): Writable & { bytes(): Buffer } {
  const parts: Buffer[] = [];
  const w = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      onWrite(chunk.length);
      if (slow) setImmediate(done);
      else done();
    },
  });
  return Object.assign(w, { bytes: () => Buffer.concat(parts) });
}

/** `bytes` as a source of `size`-byte pieces that counts what has been pulled from it. */
function counted(bytes: Buffer, size: number): { source: AsyncGenerator<Buffer>; pulled(): number } {
  let pulled = 0;
  async function* source() {
    for (let i = 0; i < bytes.length; i += size) {
      const piece = bytes.subarray(i, i + size);
      pulled += piece.length;
      yield piece;
    }
  }
  return { source: source(), pulled: () => pulled };
}

test("a multi-MiB plaintext round trips with a small chunk size, read no further ahead than the slow writer allows", async () => {
  const keys = new FakeKeys();
  const plaintext = randomBytes(5 * MiB + 123);
  const input = counted(plaintext, 8 * 1024);
  let written = 0;
  let maxAhead = 0;
  const encrypted = sink(true, (n) => {
    written += n;
    maxAhead = Math.max(maxAhead, input.pulled() - written);
  });
  const info = await encryptStream(keys, "files", input.source, encrypted, {
    chunkSize: 1024,
    context: Buffer.from("doc-1"),
  });
  assert.equal(info.plaintextBytes, plaintext.length);
  assert.equal(info.chunkSize, 1024);
  assert.ok(maxAhead < 256 * 1024, `read ${maxAhead} bytes ahead of the writer`);
  const file = encrypted.bytes();
  const chunks = Math.ceil(plaintext.length / 1024);
  assert.equal(file.length, 27 + 2 + info.wrappedKey.length + plaintext.length + 16 * chunks);

  const fileInput = counted(file, 8 * 1024);
  let decrypted = 0;
  maxAhead = 0;
  const output = sink(true, (n) => {
    decrypted += n;
    // Compared as file bytes: each 1024-byte chunk of plaintext was 1040 bytes of the file.
    maxAhead = Math.max(maxAhead, fileInput.pulled() - (decrypted / 1024) * 1040);
  });
  const read = await decryptStream(keys, fileInput.source, output, { context: Buffer.from("doc-1") });
  assert.ok(output.bytes().equals(plaintext));
  assert.deepEqual(read, info);
  assert.ok(maxAhead < 256 * 1024, `read ${maxAhead} bytes ahead of the writer`);
});

test("Readable in and out; every file gets its own data key and nonce prefix", async () => {
  const keys = new FakeKeys();
  const plaintext = Buffer.from("the same text twice");
  const [a, b] = [sink(), sink()];
  await encryptStream(keys, "files", Readable.from([plaintext]), a);
  await encryptStream(keys, "files", Readable.from([plaintext]), b);
  assert.ok(!a.bytes().subarray(20, 27).equals(b.bytes().subarray(20, 27)), "nonce prefixes differ");
  const out = sink();
  await decryptStream(keys, Readable.from([a.bytes()]), out);
  assert.equal(out.bytes().toString(), "the same text twice");
});

test("the wrapped key is bound to the context", async () => {
  const keys = new FakeKeys();
  const file = sink();
  await encryptStream(keys, "files", [Buffer.from("x")], file, { context: Buffer.from("a") });
  await assert.rejects(
    decryptStream(keys, [file.bytes()], sink(), { context: Buffer.from("b") }),
    DecryptionFailedError,
  );
});

test("a chunk size out of range is refused before any call", async () => {
  const keys = new FakeKeys();
  for (const chunkSize of [0, 15, 16 * MiB + 1]) {
    await assert.rejects(encryptStream(keys, "files", [Buffer.from("x")], sink(), { chunkSize }), RangeError);
  }
  assert.equal(keys.calls, 0);
});

test("a failed decryption destroys the destination with the error", async () => {
  const keys = new FakeKeys();
  const file = sink();
  await encryptStream(keys, "files", [randomBytes(100)], file, { chunkSize: 16 });
  const cut = file.bytes().subarray(0, file.bytes().length - 10);
  const out = sink();
  await assert.rejects(
    decryptStream(keys, [cut], out),
    (e: unknown) => e instanceof InvalidFileError && e.defect === "truncated",
  );
  assert.ok(out.destroyed && out.errored instanceof InvalidFileError);
});

test("aborting stops the pipeline with CancelledError and stops reading the source at the next chunk", async () => {
  const keys = new FakeKeys();
  const controller = new AbortController();
  let pulled = 0;
  async function* endless() {
    for (;;) {
      pulled++;
      if (pulled === 50) controller.abort();
      yield randomBytes(1024);
      await new Promise((r) => setImmediate(r));
    }
  }
  await assert.rejects(
    encryptStream(keys, "files", endless(), sink(), { chunkSize: 1024, signal: controller.signal }),
    CancelledError,
  );
  const atAbort = pulled;
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(pulled, atAbort);
  assert.ok(pulled < 60);
});
