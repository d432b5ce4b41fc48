/**
 * Vault Transit's own ciphertexts (proto/testdata/transit_vectors.json, made by a real Transit with the
 * keys that made them) through the real server: the keys imported version by version, every `vault:vN:`
 * ciphertext decrypted and rewrapped with expectedKey naming its key, by the unary, batch and stream calls.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as cipherd from "../src/index.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

interface Vectors {
  keys: {
    name: string;
    type: string;
    /** A derived key's KDF. */
    kdf?: cipherd.TransitKdfName;
    versions: Record<string, string>;
    /** context is Transit's context, for a derived key. */
    cases: { ciphertext: string; plaintext: string; associated_data: string; context: string }[];
  }[];
}
const vectors = JSON.parse(
  readFileSync(resolve(fileURLToPath(import.meta.url), "../../../../../proto/testdata/transit_vectors.json"), "utf8"),
) as Vectors;

/** One vector, with the fresh key its Transit key was imported into. */
interface TransitCase {
  key: string;
  version: number;
  /** The key's current version once imported. */
  current: number;
  ciphertext: string;
  plaintext: Uint8Array;
  /** Transit's associated_data, or a derived key's context. */
  context: Uint8Array;
}

const base64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));
/** Bytes as hex, to compare a Buffer the client returns with a Uint8Array. */
const hex = (b: Uint8Array | undefined) => (b === undefined ? "undefined" : Buffer.from(b).toString("hex"));

const collect = async <T>(results: AsyncIterable<cipherd.ItemResult<T>>) => {
  const all: cipherd.ItemResult<T>[] = [];
  for await (const r of results) all.push(r);
  return all;
};

describe("Vault Transit ciphertexts", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  const cases: TransitCase[] = [];
  before(async () => {
    server = await startServer(tempDir("transit"), []);
    c = new cipherd.CipherdClient(server.address);
    const family = `t-${randomUUID().slice(0, 8)}`;
    for (const key of vectors.keys) {
      const name = `${family}-${key.name}`;
      const mode = key.type.startsWith("chacha") ? "chacha" : "gcm";
      const count = Object.keys(key.versions).length;
      // In order, so that cipherd's version numbers are Transit's.
      for (let v = 1; v <= count; v++) {
        const material = key.versions[String(v)];
        assert.ok(material !== undefined, `${key.name} v${v} in the vectors`);
        const imported = await c.importKey(name, base64(material), { mode, transitKdf: key.kdf });
        assert.equal(imported.currentVersion, v, `${key.name} keeps Transit's version numbers`);
      }
      // A derived key's versions only decrypt: rotated for one that encrypts, as cipherctl does.
      const current = key.kdf === undefined ? count : (await c.rotateKey(name)).currentVersion;
      for (const k of key.cases) {
        cases.push({
          key: name,
          version: Number(k.ciphertext.split(":")[1]?.slice(1)),
          current,
          ciphertext: k.ciphertext,
          plaintext: base64(k.plaintext),
          context: base64(k.context || k.associated_data),
        });
      }
    }
    assert.ok(cases.length >= 100, `${cases.length} vectors`);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  /** A cipherd ciphertext under the key's current version, from the case's, that decrypts to its plaintext. */
  const checkRewrap = async (k: TransitCase, r: cipherd.Rewrapped | undefined) => {
    assert.ok(r !== undefined, k.ciphertext);
    assert.ok(r.ciphertext.startsWith(`<${k.key}/v${k.current}:`), k.ciphertext);
    assert.deepEqual([r.keyVersion, r.sourceKeyVersion], [k.current, k.version], k.ciphertext);
    assert.equal(hex(await c.decrypt(r.ciphertext, { context: k.context })), hex(k.plaintext));
  };

  test("decrypt and reEncrypt take each with its expectedKey", async () => {
    for (const k of cases) {
      assert.equal(hex(await c.decrypt(k.ciphertext, { context: k.context, expectedKey: k.key })), hex(k.plaintext));
      await checkRewrap(k, await c.reEncrypt(k.ciphertext, { context: k.context, expectedKey: k.key }));
    }
  });

  test("decryptBatch and reEncryptBatch take each with the item's expectedKey", async () => {
    const items = cases.map((k, i) => ({
      ciphertext: k.ciphertext,
      context: k.context,
      reference: String(i),
      expectedKey: k.key,
    }));
    const decrypted = await c.decryptBatch(items);
    const rewrapped = await c.reEncryptBatch(items);

    assert.deepEqual(
      decrypted.map((r) => r.reference),
      items.map((i) => i.reference),
    );
    assert.deepEqual(
      rewrapped.map((r) => r.reference),
      items.map((i) => i.reference),
    );
    for (const [i, k] of cases.entries()) {
      const plain = decrypted[i];
      assert.equal(plain?.error, undefined, k.ciphertext);
      assert.deepEqual([hex(plain?.value), plain?.keyVersion], [hex(k.plaintext), k.version], k.ciphertext);
      assert.equal(rewrapped[i]?.error, undefined, k.ciphertext);
      await checkRewrap(k, rewrapped[i]?.value);
    }
  });

  test("decryptStream and reEncryptStream take each with the call's expectedKey", async () => {
    for (const key of new Set(cases.map((k) => k.key))) {
      const mine = cases.filter((k) => k.key === key);
      const items = mine.map((k, i) => ({ ciphertext: k.ciphertext, context: k.context, reference: String(i) }));

      const decrypted = await collect(c.decryptStream(items, { expectedKey: key }));
      const rewrapped = await collect(c.reEncryptStream(items, { expectedKey: key }));

      assert.equal(decrypted.length, mine.length);
      assert.equal(rewrapped.length, mine.length);
      for (const [i, k] of mine.entries()) {
        assert.equal(decrypted[i]?.error, undefined, k.ciphertext);
        assert.equal(hex(decrypted[i]?.value), hex(k.plaintext), k.ciphertext);
        assert.equal(rewrapped[i]?.error, undefined, k.ciphertext);
        await checkRewrap(k, rewrapped[i]?.value);
      }
    }
  });
});
