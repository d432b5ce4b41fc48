/** Exact reads across pieces of any size, pulled only when needed. */
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { test } from "node:test";
import { ByteReader } from "../src/file/byte-reader.js";

const bytes = (...values: number[]) => Buffer.from(values);

test("reads span pieces, come short only at the end, and the rest follows", async () => {
  const reader = new ByteReader([bytes(1, 2), bytes(), bytes(3), bytes(4, 5, 6, 7)]);
  assert.deepEqual([...(await reader.read(3))], [1, 2, 3]);
  assert.deepEqual([...(await reader.read(1))], [4]);
  assert.equal(await reader.atEnd(), false);
  const rest: number[] = [];
  for await (const piece of reader.rest()) rest.push(...piece);
  assert.deepEqual(rest, [5, 6, 7]);
  assert.equal((await reader.read(4)).length, 0);
  assert.equal(await reader.atEnd(), true);
});

test("a piece is pulled only when a read needs it", async () => {
  let pulled = 0;
  function* source() {
    for (let i = 0; i < 100; i++) {
      pulled++;
      yield Buffer.alloc(10, i);
    }
  }
  const reader = new ByteReader(source());
  await reader.read(25);
  assert.equal(pulled, 3);
  await reader.close();
  assert.equal((await reader.read(10)).length, 0);
  assert.equal(pulled, 3);
});

test("a Readable is read as bytes, and closing early destroys it", async () => {
  const readable = Readable.from([bytes(9, 8), bytes(7)], { objectMode: false });
  const reader = new ByteReader(readable);
  assert.deepEqual([...(await reader.read(1))], [9]);
  await reader.close();
  assert.equal(readable.destroyed, true);
});

test("strings are refused rather than guessed at", async () => {
  const reader = new ByteReader(Readable.from(["text"]) as AsyncIterable<Uint8Array>);
  await assert.rejects(reader.read(1), TypeError);
});
