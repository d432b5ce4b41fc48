/**
 * Legacy ciphertexts: MySQL's known answer imported by passphrase, data made here with node:crypto (an
 * implementation independent of the server's), rewrapped by every ReEncrypt form into a cipherd key and
 * decrypted back; and the local checks of a LegacyCiphertext.
 */
import assert from "node:assert/strict";
import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { legacyToProto } from "../src/legacy.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

/** HEX(AES_ENCRYPT('HELLO', '1234567890')), as MySQL answers it (proto/README.md, "The MySQL key fold"). */
const MYSQL_HELLO = "FF06A56B4E88C828A010E9BD0CE70A89";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const freshName = () => `t-${randomUUID().slice(0, 13)}`;

/** MySQL's AES_ENCRYPT(plaintext, passphrase): the key string XOR-folded into 16 bytes, AES-128-ECB, PKCS#7. */
function mysqlAesEncrypt(plaintext: Uint8Array, passphrase: Uint8Array): Buffer {
  const key = Buffer.alloc(16);
  passphrase.forEach((b, i) => {
    key[i % 16]! ^= b;
  });
  const cipher = createCipheriv("aes-128-ecb", key, null);
  return Buffer.concat([cipher.update(plaintext), cipher.final()]);
}

function aesCbc(key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array): Buffer {
  const cipher = createCipheriv(`aes-${key.length * 8}-cbc`, key, iv);
  return Buffer.concat([cipher.update(plaintext), cipher.final()]);
}

test("the test's MySQL AES_ENCRYPT gives MySQL's known answer", () => {
  assert.equal(mysqlAesEncrypt(bytes("HELLO"), bytes("1234567890")).toString("hex").toUpperCase(), MYSQL_HELLO);
});

test("a LegacyCiphertext takes exactly one form of data and a whole key version", () => {
  const message = legacyToProto({ keyName: "old", hex: MYSQL_HELLO });
  assert.deepEqual(
    [message.keyName, message.keyVersion, message.hex, message.raw, message.base64],
    ["old", 0, MYSQL_HELLO, undefined, undefined],
  );
  const both = { keyName: "old", hex: "00", base64: "AA==" } as unknown as cipherd.LegacyCiphertext;
  assert.throws(() => legacyToProto(both), /exactly one of raw, hex or base64, got hex, base64/);
  assert.throws(() => legacyToProto({ keyName: "old" } as unknown as cipherd.LegacyCiphertext), /got none/);
  assert.throws(() => legacyToProto({ keyName: "old", hex: "00", keyVersion: -1 }), RangeError);
});

describe("legacy ciphertexts", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("legacy"), []);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  async function gcmTarget(): Promise<string> {
    const name = freshName();
    await c.createKey(name);
    return name;
  }

  test("MySQL's known answer imported by passphrase rewraps into a gcm key and decrypts to HELLO, from hex, raw and base64", async () => {
    const legacy = freshName();
    const target = await gcmTarget();
    const key = await c.importKey(legacy, new Uint8Array(0), {
      legacyCipher: "mysql_aes_ecb",
      passphrase: "1234567890",
    });
    const version = key.versions.at(-1)!;
    assert.deepEqual(
      [cipherd.legacyCipherFromProto(version.legacyCipher), version.keySizeBits],
      ["mysql_aes_ecb", 128],
    );
    const raw = Buffer.from(MYSQL_HELLO, "hex");
    const forms: cipherd.LegacyCiphertext[] = [
      { keyName: legacy, hex: MYSQL_HELLO },
      { keyName: legacy, hex: MYSQL_HELLO.toLowerCase() },
      { keyName: legacy, raw },
      { keyName: legacy, base64: raw.toString("base64") },
    ];
    for (const form of forms) {
      const rewrapped = await c.reEncrypt(form, { keyName: target, context: bytes("users.name/1") });
      const envelope = cipherd.parseCiphertext(rewrapped.ciphertext);
      assert.deepEqual([envelope.keyName, envelope.mode, rewrapped.sourceKeyVersion], [target, "gcm", version.version]);
      assert.equal(text(await c.decrypt(rewrapped.ciphertext, { context: bytes("users.name/1") })), "HELLO");
    }
  });

  test("a column rewraps in one stream, a broken row failing alone", async () => {
    const legacy = freshName();
    const target = await gcmTarget();
    const passphrase = bytes("a key string longer than 16 bytes");
    await c.importKey(legacy, new Uint8Array(0), { legacyCipher: "mysql_aes_ecb", passphrase });
    const values = new Map(
      Array.from({ length: 300 }, (_, i) => [String(i + 1), `row ${i + 1}: ${"x".repeat(i % 40)}`]),
    );
    const column = new Map(
      [...values].map(([id, v]) => [id, mysqlAesEncrypt(bytes(v), passphrase).toString("hex").toUpperCase()]),
    );
    column.set("150", column.get("150")!.slice(0, -2)); // a row that lost a byte: not whole AES blocks
    async function* rows(): AsyncGenerator<cipherd.LegacyItem> {
      for (const [id, hex] of column) yield { legacy: { keyName: legacy, hex }, context: bytes(id), reference: id };
    }
    const results = [];
    for await (const r of c.reEncryptStream(rows(), { keyName: target })) results.push(r);
    assert.deepEqual(
      results.map((r) => r.reference),
      [...column.keys()],
    );
    const failed = results.filter((r) => !r.ok);
    assert.deepEqual(
      failed.map((r) => r.reference),
      ["150"],
    );
    assert.ok(failed[0]!.error instanceof cipherd.DecryptionFailedError);
    const decrypted = [];
    const rewrapped = results
      .filter((r) => r.ok)
      .map((r) => ({ ciphertext: r.unwrap().ciphertext, context: bytes(r.reference), reference: r.reference }));
    for await (const r of c.decryptStream(rewrapped)) decrypted.push([r.reference, text(r.unwrap())]);
    values.delete("150");
    assert.deepEqual(new Map(decrypted as [string, string][]), values);
  });

  test("a batch rewraps legacy and cipherd items together; a damaged item fails alone", async () => {
    const legacy = freshName();
    const target = await gcmTarget();
    const key = randomBytes(32);
    const iv = randomBytes(16);
    await c.importKey(legacy, key, { legacyCipher: "aes_cbc", legacyIv: "fixed", legacyFixedIv: iv });
    const ours = await c.encrypt(target, bytes("already cipherd"));
    const results = await c.reEncryptBatch(
      [
        { legacy: { keyName: legacy, raw: aesCbc(key, iv, bytes("fixed iv")) }, reference: "legacy" },
        { ciphertext: ours, reference: "cipherd" },
        // Cut short of a whole block, so it fails every time (a wrong key passes the padding check about once in 256).
        { legacy: { keyName: legacy, raw: aesCbc(key, iv, bytes("cut short")).subarray(0, 15) }, reference: "bad" },
      ],
      { keyName: target },
    );
    assert.deepEqual(
      results.map((r) => r.reference),
      ["legacy", "cipherd", "bad"],
    );
    assert.equal(text(await c.decrypt(results[0]!.unwrap().ciphertext)), "fixed iv");
    assert.equal(text(await c.decrypt(results[1]!.unwrap().ciphertext)), "already cipherd");
    assert.ok(results[2]!.error instanceof cipherd.DecryptionFailedError);
    await assert.rejects(
      c.reEncryptBatch([{ ciphertext: ours, keyName: "elsewhere" }], { keyName: target }),
      TypeError,
    );
  });

  test("items with their own IVs rewrap from a stream resumed after a reference", async () => {
    const legacy = freshName();
    const key = randomBytes(16);
    const imported = await c.importKey(legacy, key, { legacyCipher: "aes_cbc", legacyIv: "separate" });
    assert.equal(cipherd.legacyIvFromProto(imported.versions.at(-1)!.legacyIv), "separate");
    const target = freshName();
    await c.createKey(target, { mode: "xgcm" });
    const ivs = Array.from({ length: 30 }, () => randomBytes(16));
    const items = ivs.map((iv, i) => ({
      legacy: { keyName: legacy, base64: aesCbc(key, iv, bytes(`value ${i}`)).toString("base64"), iv },
      reference: String(i),
      keyName: target,
    }));
    const results = [];
    for await (const r of c.reEncryptStream(items, { resumeAfter: "9" })) results.push(r);
    assert.deepEqual(
      results.map((r) => r.reference),
      ivs.slice(10).map((_, i) => String(i + 10)),
    );
    assert.ok(
      results.every(
        (r) => r.unwrap().sourceKeyVersion === 1 && cipherd.parseCiphertext(r.unwrap().ciphertext).mode === "xgcm",
      ),
    );
    assert.equal(text(await c.decrypt(results[0]!.unwrap().ciphertext)), "value 10");
  });

  test("a legacy key never encrypts, a legacy rewrap needs a target, and bad hex is refused without being quoted", async () => {
    const legacy = freshName();
    await c.importKey(legacy, new Uint8Array(0), { legacyCipher: "mysql_aes_ecb", passphrase: "1234567890" });
    await assert.rejects(c.encrypt(legacy, bytes("x")), cipherd.FailedPreconditionError);
    await assert.rejects(c.reEncrypt({ keyName: legacy, hex: MYSQL_HELLO }), cipherd.InvalidArgumentError);
    await assert.rejects(c.rotateKey(legacy), cipherd.InvalidArgumentError);
    const target = await gcmTarget();
    await assert.rejects(c.reEncrypt({ keyName: legacy, hex: "ZZSECRETZZ" }, { keyName: target }), (e: unknown) => {
      assert.ok(e instanceof cipherd.InvalidArgumentError);
      assert.ok(e.details.includes("legacy.hex") && !e.details.includes("SECRET"), e.details);
      return true;
    });
  });
});
