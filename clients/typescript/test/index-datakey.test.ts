/** Blind indexes, data keys and data-key files, and the siv and xgcm modes, against the real server. */
import assert from "node:assert/strict";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createReadStream, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test, type TestContext } from "node:test";
import { openFile } from "../src/file/stream-cipher.js";
import * as cipherd from "../src/index.js";
import { sivOpen, xaesOpen } from "./reference-ciphers.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const freshName = () => `t-${randomUUID().slice(0, 13)}`;
const headerLength = (file: Buffer) => 29 + file.readUInt16BE(27);

/** A directory for one test's files, removed when the test ends. */
function scratch(t: TestContext): string {
  const dir = tempDir("files");
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("against a plaintext server", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("index"), []);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  describe("blind indexes", () => {
    test("reIndex after a rotation gives computeIndex of the plaintext, and the old version retires", async () => {
      const idx = freshName();
      const data = freshName();
      await c.createKey(idx, { mode: "hmac" });
      await c.createKey(data);
      const column = bytes("accounts.email");
      const email = { normalization: { trim: true, casefold: true }, length: 16 };
      const emails = ["Alice@Example.com", "bob@example.com"];
      const rows: string[] = [];
      for (const e of emails) {
        rows.push(await c.encrypt(data, bytes(e), { context: column }));
        assert.equal((await c.computeIndex(idx, e, email)).keyVersion, 1);
      }
      await c.rotateKey(idx, { mode: "hmac" });
      await new Promise((resolve) => setTimeout(resolve, 1100)); // the v1 indexes are older than the 1 s quiet period

      const results = await c.reIndexBatch(
        idx,
        rows.map((ciphertext, i) => ({ ciphertext, context: column, reference: `r${i}` })),
        { ...email, expectedKey: data },
      );
      for (const [i, r] of results.entries()) {
        const v = r.unwrap();
        assert.deepEqual([r.reference, v.keyVersion, v.sourceKeyVersion], [`r${i}`, 2, 1]);
        assert.equal(hex(v.index), hex((await c.computeIndex(idx, emails[i]!, email)).index));
      }
      const one = await c.reIndex(idx, rows[0]!, { ...email, context: column });
      assert.equal(hex(one.index), hex(results[0]!.unwrap().index));
      await assert.rejects(
        c.reIndex(idx, rows[0]!, { ...email, context: bytes("other") }),
        cipherd.DecryptionFailedError,
      );
      await assert.rejects(
        c.reIndex(idx, rows[0]!, { ...email, context: column, expectedKey: "payments-*" }),
        (e: cipherd.CipherdError) => e.reason === "UNEXPECTED_KEY",
      );

      const lookup = await c.computeIndex(idx, " ALICE@example.com", { ...email, allVersions: true });
      assert.deepEqual(
        lookup.versions.map((v) => v.keyVersion),
        [2, 1],
      );
      const v1 = (await c.getKeyCensus(idx, { quietPeriodSeconds: 1 })).versions[0]!;
      assert.deepEqual([v1.version, v1.inUse, v1.usage.indexes, v1.usage.indexLookups], [1, false, 2, 1]);
      assert.ok(v1.usage.lastLookupTime !== undefined && v1.usage.lastUsedTime !== undefined);
      assert.deepEqual((await c.retireKeyVersions(idx, 2, { quietPeriodSeconds: 1 })).retiredVersions, [1]);
    });

    test("an imported index key hashes as HMAC-SHA-256 of the normalized UTF-8, truncated to the length asked", async () => {
      const name = freshName();
      const key = randomBytes(32);
      await c.importKey(name, key, { mode: "hmac" });
      const expected = createHmac("sha256", key).update("alice@example.com").digest();
      const index = await c.computeIndex(name, " Alice@Example.COM\t", {
        normalization: { trim: true, casefold: true },
      });
      assert.deepEqual([hex(index.index), index.keyVersion, index.versions], [hex(expected), 1, []]);
      const short = await c.computeIndex(name, bytes("alice@example.com"), { length: 8 });
      assert.equal(hex(short.index), hex(expected.subarray(0, 8)));
      for (const length of [7, 33])
        await assert.rejects(c.computeIndex(name, "x", { length }), cipherd.InvalidArgumentError);
    });

    test("normalization makes equal what the user sees as equal, and only when asked", async () => {
      const name = freshName();
      await c.createKey(name, { mode: "hmac" });
      const all = { normalization: { trim: true, nfkc: true, casefold: true } };
      const idx = async (value: string, options: cipherd.IndexOptions = all) =>
        hex((await c.computeIndex(name, value, options)).index);
      assert.equal(await idx("Straße"), await idx("STRASSE"));
      assert.equal(await idx("ﬁle"), await idx("FILE"));
      assert.equal(await idx("\u00a0\u2003Ａｂｃ\n"), await idx("abc"));
      assert.equal(await idx("e\u0301"), await idx("\u00e9"));
      assert.notEqual(await idx("Straße", {}), await idx("STRASSE", {}));
      assert.notEqual(
        await idx(" abc", { normalization: { casefold: true } }),
        await idx("abc", { normalization: { casefold: true } }),
      );
      // Case folding alone maps the ligature "ﬁ" to "fi" (CaseFolding.txt status F), but not full-width letters to ASCII.
      const folded = { normalization: { casefold: true } };
      assert.equal(await idx("ﬁle", folded), await idx("file", folded));
      assert.notEqual(await idx("Ａｂｃ", folded), await idx("abc", folded));
    });

    test("bytes that are not UTF-8 index as given, but not with a normalization", async () => {
      const name = freshName();
      await c.createKey(name, { mode: "hmac" });
      const notUtf8 = new Uint8Array([0xff, 0xfe, 0x41]);
      assert.equal((await c.computeIndex(name, notUtf8)).index.length, 32);
      await assert.rejects(
        c.computeIndex(name, notUtf8, { normalization: { trim: true } }),
        cipherd.InvalidArgumentError,
      );
    });

    test("after a rotation, allVersions gives the index under every usable version, newest first", async () => {
      const name = freshName();
      await c.createKey(name, { mode: "hmac" });
      const v1 = await c.computeIndex(name, "bob", { length: 16 });
      await c.rotateKey(name);
      const both = await c.computeIndex(name, "bob", { length: 16, allVersions: true });
      assert.equal(both.keyVersion, 2);
      assert.deepEqual(
        both.versions.map((v) => v.keyVersion),
        [2, 1],
      );
      assert.equal(hex(both.versions[0]!.index), hex(both.index));
      assert.equal(hex(both.versions[1]!.index), hex(v1.index));
      assert.notEqual(hex(both.index), hex(v1.index));
      assert.equal(hex((await c.computeIndex(name, "bob", { length: 16, keyVersion: 1 })).index), hex(v1.index));
      await c.updateKeyPolicy(name, { minDecryptionVersion: 2, minEncryptionVersion: 0, allowEcbEncryption: false });
      assert.deepEqual(
        (await c.computeIndex(name, "bob", { allVersions: true })).versions.map((v) => v.keyVersion),
        [2],
      );
    });

    test("a batch answers every item in order, each with its own index or error", async () => {
      const name = freshName();
      await c.createKey(name, { mode: "hmac" });
      const options = { normalization: { casefold: true }, length: 12 };
      const results = await c.computeIndexBatch(
        name,
        [{ value: "Carol", reference: "a" }, { value: new Uint8Array([0xc3]), reference: "bad" }, "CAROL"],
        options,
      );
      assert.deepEqual(
        results.map((r) => [r.reference, r.ok]),
        [
          ["a", true],
          ["bad", false],
          ["", true],
        ],
      );
      assert.ok(results[1]!.error instanceof cipherd.InvalidArgumentError);
      const single = hex((await c.computeIndex(name, "carol", options)).index);
      assert.deepEqual(
        [hex(results[0]!.unwrap()), hex(results[2]!.unwrap()), results[0]!.keyVersion],
        [single, single, 1],
      );
    });

    test("an index key never encrypts, and a cipher key never indexes", async () => {
      const index = freshName();
      const cipher = freshName();
      await c.createKey(index, { mode: "hmac" });
      await c.createKey(cipher);
      await assert.rejects(c.encrypt(index, bytes("x")), cipherd.FailedPreconditionError);
      await assert.rejects(c.generateDataKey(index), cipherd.FailedPreconditionError);
      await assert.rejects(c.computeIndex(cipher, "x"), cipherd.FailedPreconditionError);
    });
  });

  describe("data keys and files", () => {
    test("a data key's wrapped form decrypts to its plaintext, bound to the context", async () => {
      const name = freshName();
      await c.createKey(name);
      const context = bytes("bucket/object-1");
      const key = await c.generateDataKey(name, { context });
      assert.equal(key.plaintextKey?.length, 32);
      assert.equal(key.keyVersion, 1);
      assert.equal(hex(await c.decrypt(key.wrappedKey, { context })), hex(key.plaintextKey!));
      await assert.rejects(c.decrypt(key.wrappedKey), cipherd.DecryptionFailedError);
      assert.equal((await c.generateDataKey(name, { keySizeBits: 128 })).plaintextKey?.length, 16);
      const omitted = await c.generateDataKey(name, { omitPlaintext: true });
      assert.equal(omitted.plaintextKey, undefined);
      assert.equal((await c.decrypt(omitted.wrappedKey)).length, 32);
    });

    test("a file round trips, and its header's wrapped key is the data key that opens its chunks", async (t) => {
      const name = freshName();
      await c.createKey(name);
      const dir = scratch(t);
      const plaintext = randomBytes(3 * 1024 * 1024 + 5);
      writeFileSync(join(dir, "in"), plaintext);
      const context = bytes("invoice-42");
      const info = await c.encryptFile(name, join(dir, "in"), join(dir, "in.enc"), { context, chunkSize: 16 * 1024 });
      assert.equal(cipherd.parseCiphertext(info.wrappedKey).keyName, name);
      await c.decryptFile(join(dir, "in.enc"), join(dir, "out"), { context });
      assert.ok(readFileSync(join(dir, "out")).equals(plaintext));
      const unwrapped: Buffer[] = [];
      for await (const chunk of openFile(createReadStream(join(dir, "in.enc")), (wrapped) =>
        c.decrypt(wrapped, { context }),
      )) {
        unwrapped.push(chunk);
      }
      assert.ok(Buffer.concat(unwrapped).equals(plaintext));
      await assert.rejects(
        c.decryptFile(join(dir, "in.enc"), join(dir, "wrong"), { context: bytes("other") }),
        cipherd.DecryptionFailedError,
      );
    });

    test("after a rotation rewrapFileKey moves the file to the new version without touching its chunks", async (t) => {
      const name = freshName();
      await c.createKey(name);
      const dir = scratch(t);
      writeFileSync(join(dir, "in"), randomBytes(200_000));
      await c.encryptFile(name, join(dir, "in"), join(dir, "f"));
      const before = readFileSync(join(dir, "f"));
      await c.rotateKey(name, { mode: "xgcm" });
      const rewrapped = await c.rewrapFileKey(join(dir, "f"));
      assert.deepEqual([rewrapped.sourceKeyVersion, rewrapped.keyVersion], [1, 2]);
      const after = readFileSync(join(dir, "f"));
      const wrapped = cipherd.parseCiphertext(after.subarray(29, headerLength(after)).toString("ascii"));
      assert.deepEqual([wrapped.keyVersion, wrapped.mode], [2, "xgcm"]);
      assert.ok(after.subarray(headerLength(after)).equals(before.subarray(headerLength(before))));
      await c.updateKeyPolicy(name, { minDecryptionVersion: 2, minEncryptionVersion: 0, allowEcbEncryption: false });
      await c.decryptFile(join(dir, "f"), join(dir, "out"));
      assert.ok(readFileSync(join(dir, "out")).equals(readFileSync(join(dir, "in"))));
      writeFileSync(join(dir, "old"), before);
      await assert.rejects(c.decryptFile(join(dir, "old"), join(dir, "out2")), cipherd.FailedPreconditionError);
    });
  });

  describe("siv and xgcm", () => {
    test("siv is deterministic per plaintext, context and version, and round trips", async () => {
      const name = freshName();
      await c.createKey(name, { mode: "siv" });
      const a = await c.encrypt(name, bytes("alice@example.com"), { context: bytes("users.email") });
      assert.equal(await c.encrypt(name, bytes("alice@example.com"), { context: bytes("users.email") }), a);
      assert.notEqual(await c.encrypt(name, bytes("alice@example.com"), { context: bytes("users.phone") }), a);
      assert.notEqual(await c.encrypt(name, bytes("bob@example.com"), { context: bytes("users.email") }), a);
      const envelope = cipherd.parseCiphertext(a);
      assert.deepEqual([envelope.mode, envelope.payload.length], ["siv", 16 + 17]);
      assert.equal(
        new TextDecoder().decode(await c.decrypt(a, { context: bytes("users.email") })),
        "alice@example.com",
      );
      await assert.rejects(c.decrypt(a), cipherd.DecryptionFailedError);
      assert.equal((await c.inspect(a)).mode, "siv");
      await c.rotateKey(name);
      assert.notEqual(await c.encrypt(name, bytes("alice@example.com"), { context: bytes("users.email") }), a);
    });

    test("siv with an imported key decrypts locally as AES-SIV over header and context", async () => {
      const name = freshName();
      const key = randomBytes(64);
      await c.importKey(name, key, { mode: "siv" });
      for (const plaintext of ["", "short", "longer than one AES block, so S2V xors the end"]) {
        const envelope = cipherd.parseCiphertext(await c.encrypt(name, bytes(plaintext), { context: bytes("ctx") }));
        const aad = Buffer.concat([Buffer.from(envelope.header, "ascii"), bytes("ctx")]);
        assert.equal(sivOpen(key, Buffer.from(envelope.payload), aad).toString(), plaintext);
      }
    });

    test("xgcm round trips, draws a fresh nonce each time, and decrypts locally as XAES-256-GCM", async () => {
      const name = freshName();
      const key = randomBytes(32);
      await c.importKey(name, key, { mode: "xgcm" });
      const context = bytes("ctx");
      const a = await c.encrypt(name, bytes("twelve bytes"), { context });
      const b = await c.encrypt(name, bytes("twelve bytes"), { context });
      assert.notEqual(a, b);
      const envelope = cipherd.parseCiphertext(a);
      assert.deepEqual([envelope.mode, envelope.payload.length], ["xgcm", 40 + 12]);
      assert.equal(new TextDecoder().decode(await c.decrypt(a, { context })), "twelve bytes");
      const aad = Buffer.concat([Buffer.from(envelope.header, "ascii"), context]);
      assert.equal(xaesOpen(key, Buffer.from(envelope.payload), aad).toString(), "twelve bytes");
      const created = freshName();
      await c.createKey(created, { mode: "xgcm" });
      assert.equal(new TextDecoder().decode(await c.decrypt(await c.encrypt(created, bytes("")))), "");
    });
  });
});
