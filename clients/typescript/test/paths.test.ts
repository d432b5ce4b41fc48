/** encryptFile, decryptFile and rewrapFileKey on real files, with a stand-in for cipherd. */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test, type TestContext } from "node:test";
import { fileURLToPath } from "node:url";
import { decryptFile, encryptFile, rewrapFileKey } from "../src/file/paths.js";
import { InvalidFileError, type Rewrapped } from "../src/index.js";
import { FakeKeys } from "./fake-keys.js";
import { tempDir } from "./server.js";

const vectors = JSON.parse(
  readFileSync(resolve(fileURLToPath(import.meta.url), "../../../../../proto/testdata/datakey_files.json"), "utf8"),
) as { wrapped_key: string; valid: { file_hex: string }[]; rewrapped: { wrapped_key: string; file_hex: string } };

/** Header length of a file: 27 fixed bytes, the uint16 length, the wrapped key. */
const headerLength = (file: Buffer) => 29 + file.readUInt16BE(27);

/** A directory for one test's files, removed when the test ends. */
function scratch(t: TestContext): string {
  const dir = tempDir("files");
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("encryptFile and decryptFile round trip; the plaintext output is 0600", async (t) => {
  const dir = scratch(t);
  const keys = new FakeKeys();
  const plaintext = randomBytes(300_000);
  writeFileSync(join(dir, "in"), plaintext);
  const info = await encryptFile(keys, "files", join(dir, "in"), join(dir, "in.enc"), {
    chunkSize: 4096,
    context: Buffer.from("c"),
  });
  assert.equal(info.plaintextBytes, plaintext.length);
  assert.ok(!readFileSync(join(dir, "in.enc")).includes(plaintext.subarray(0, 64)));
  await decryptFile(keys, join(dir, "in.enc"), join(dir, "out"), { context: Buffer.from("c") });
  assert.ok(readFileSync(join(dir, "out")).equals(plaintext));
  assert.equal(statSync(join(dir, "out")).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir).sort(), ["in", "in.enc", "out"]);
});

for (const [defect, cut] of [
  ["truncated", (f: Buffer) => f.subarray(0, f.length - 1040)],
  [
    "chunk_invalid",
    (f: Buffer) => {
      const g = Buffer.from(f);
      g[g.length - 2000]! ^= 0x80;
      return g;
    },
  ],
] as const) {
  test(`a ${defect} file leaves the output as it was and no temporary file`, async (t) => {
    const dir = scratch(t);
    const keys = new FakeKeys();
    writeFileSync(join(dir, "in"), randomBytes(10 * 1024)); // ten full chunks, so a cut of 1040 bytes drops the last one
    await encryptFile(keys, "files", join(dir, "in"), join(dir, "in.enc"), { chunkSize: 1024 });
    writeFileSync(join(dir, "in.enc"), cut(readFileSync(join(dir, "in.enc"))));
    writeFileSync(join(dir, "out"), "previous contents");
    await assert.rejects(
      decryptFile(keys, join(dir, "in.enc"), join(dir, "out")),
      (e: unknown) => e instanceof InvalidFileError && e.defect === defect,
    );
    assert.equal(readFileSync(join(dir, "out"), "utf8"), "previous contents");
    await assert.rejects(decryptFile(keys, join(dir, "in.enc"), join(dir, "fresh")), InvalidFileError);
    assert.equal(existsSync(join(dir, "fresh")), false);
    assert.deepEqual(readdirSync(dir).sort(), ["in", "in.enc", "out"]);
  });
}

test("a missing input fails without creating the output", async (t) => {
  const dir = scratch(t);
  await assert.rejects(encryptFile(new FakeKeys(), "files", join(dir, "missing"), join(dir, "out")), /ENOENT/);
  assert.deepEqual(readdirSync(dir), []);
});

test("rewrapFileKey rewrites only the header, keeps the file's mode, and the file still decrypts", async (t) => {
  const dir = scratch(t);
  const keys = new FakeKeys();
  const plaintext = randomBytes(50_000);
  writeFileSync(join(dir, "in"), plaintext);
  await encryptFile(keys, "files", join(dir, "in"), join(dir, "f"), { chunkSize: 1000, context: Buffer.from("ctx") });
  chmodSync(join(dir, "f"), 0o640);
  const before = readFileSync(join(dir, "f"));
  const rewrapped = await rewrapFileKey(keys, join(dir, "f"), { context: Buffer.from("ctx") });
  assert.deepEqual([rewrapped.sourceKeyVersion, rewrapped.keyVersion], [1, 2]);
  const after = readFileSync(join(dir, "f"));
  assert.ok(after.subarray(0, 27).equals(before.subarray(0, 27)), "magic, chunk size and nonce prefix are kept");
  assert.equal(after.subarray(29, headerLength(after)).toString("ascii"), rewrapped.ciphertext);
  assert.ok(
    after.subarray(headerLength(after)).equals(before.subarray(headerLength(before))),
    "the chunks are untouched",
  );
  assert.equal(statSync(join(dir, "f")).mode & 0o777, 0o640);
  await decryptFile(keys, join(dir, "f"), join(dir, "out"), { context: Buffer.from("ctx") });
  assert.ok(readFileSync(join(dir, "out")).equals(plaintext));
  assert.deepEqual(readdirSync(dir).sort(), ["f", "in", "out"]);
});

test("rewrapFileKey of the vectors' file with the rewrapped key gives the rewrapped file exactly", async (t) => {
  const dir = scratch(t);
  writeFileSync(join(dir, "f"), Buffer.from(vectors.valid[3]!.file_hex, "hex"));
  const asked: string[] = [];
  const service = {
    async reEncrypt(ciphertext: string): Promise<Rewrapped> {
      asked.push(ciphertext);
      return { ciphertext: vectors.rewrapped.wrapped_key, keyVersion: 2, sourceKeyVersion: 1 };
    },
  };
  await rewrapFileKey(service, join(dir, "f"));
  assert.deepEqual(asked, [vectors.wrapped_key]);
  assert.equal(readFileSync(join(dir, "f")).toString("hex"), vectors.rewrapped.file_hex);
});

test("rewrapFileKey refuses a file with a bad header before calling the server", async (t) => {
  const dir = scratch(t);
  writeFileSync(join(dir, "f"), "not a cipherd file at all, just text");
  const keys = new FakeKeys();
  await assert.rejects(
    rewrapFileKey(keys, join(dir, "f")),
    (e: unknown) => e instanceof InvalidFileError && e.defect === "header_invalid",
  );
  assert.equal(keys.calls, 0);
  assert.deepEqual(readdirSync(dir), ["f"]);
});
