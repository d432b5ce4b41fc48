/**
 * expectedKey against the real server: a value planted under another key is refused with
 * UnexpectedKeyError before it is decrypted, by decrypt, reEncrypt (the legacy key too) and the batch and
 * stream calls, where an item's own expectedKey wins over the call's.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

/** HEX(AES_ENCRYPT('HELLO', '1234567890')), as MySQL answers it. */
const MYSQL_HELLO = "FF06A56B4E88C828A010E9BD0CE70A89";
/** The column's context, which any writer of the column knows. */
const COLUMN = new TextEncoder().encode("users.email/42");

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("expectedKey", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  let family: string;
  let email: string;
  let phone: string;
  let attacker: string;
  before(async () => {
    server = await startServer(tempDir("expected-key"), []);
    c = new cipherd.CipherdClient(server.address);
    family = `t-${randomUUID().slice(0, 8)}`;
    [email, phone, attacker] = [`${family}-email`, `${family}-phone`, `${family}-attacker`];
    for (const key of [email, phone, attacker]) await c.createKey(key);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  test("refuses a planted value, which decrypts without it", async () => {
    const planted = await c.encrypt(attacker, bytes("attacker@evil.example"), { context: COLUMN });
    const real = await c.encrypt(email, bytes("alice@example.com"), { context: COLUMN });

    await assert.rejects(c.decrypt(planted, { context: COLUMN, expectedKey: email }), (e: unknown) => {
      assert.ok(e instanceof cipherd.UnexpectedKeyError && e instanceof cipherd.InvalidArgumentError);
      assert.equal(e.reason, "UNEXPECTED_KEY");
      assert.deepEqual({ ...e.metadata }, { key: attacker, expected_key: email });
      assert.ok(!e.message.includes(planted.slice(planted.indexOf(">") + 1)));
      return true;
    });
    // Why the option matters: without it, the planted value decrypts and would be trusted.
    assert.equal(text(await c.decrypt(planted, { context: COLUMN })), "attacker@evil.example");
    assert.equal(text(await c.decrypt(real, { context: COLUMN, expectedKey: email })), "alice@example.com");
    assert.equal(text(await c.decrypt(real, { context: COLUMN, expectedKey: `${family}-*` })), "alice@example.com");
    await assert.rejects(
      c.decrypt(real, { context: COLUMN, expectedKey: "*" }),
      (e: unknown) =>
        e instanceof cipherd.InvalidArgumentError &&
        !(e instanceof cipherd.UnexpectedKeyError) &&
        e.details.startsWith("expected_key must be"),
    );
  });

  test("reEncrypt checks the ciphertext's key, or the legacy key", async () => {
    const planted = await c.encrypt(attacker, bytes("x"), { context: COLUMN });
    await assert.rejects(
      c.reEncrypt(planted, { context: COLUMN, keyName: email, expectedKey: email }),
      cipherd.UnexpectedKeyError,
    );
    const legacyKey = `${family}-mysql`;
    await c.importKey(legacyKey, new Uint8Array(0), { legacyCipher: "mysql_aes_ecb", passphrase: "1234567890" });
    const legacy = { keyName: legacyKey, hex: MYSQL_HELLO };
    await assert.rejects(c.reEncrypt(legacy, { keyName: email, expectedKey: email }), cipherd.UnexpectedKeyError);
    const rewrapped = await c.reEncrypt(legacy, { keyName: email, expectedKey: legacyKey });
    assert.ok(rewrapped.ciphertext.startsWith(`<${email}/`));
  });

  test("batches and streams take the call's expectedKey, and an item's own wins", async () => {
    const seal = (key: string) => c.encrypt(key, bytes("v"), { context: COLUMN });
    const items: cipherd.CiphertextItem[] = [
      { ciphertext: await seal(email), context: COLUMN, reference: "email" },
      { ciphertext: await seal(attacker), context: COLUMN, reference: "planted" },
      { ciphertext: await seal(phone), context: COLUMN, reference: "phone-own", expectedKey: phone },
      { ciphertext: await seal(phone), context: COLUMN, reference: "phone" },
    ];
    const passing = new Set(["email", "phone-own"]); // the others are under keys the call does not expect
    const check = (what: string, results: cipherd.ItemResult<unknown>[]) => {
      assert.deepEqual(
        results.map((r) => r.reference),
        items.map((i) => i.reference),
        what,
      );
      for (const r of results) {
        if (passing.has(r.reference)) assert.equal(r.error, undefined, `${what} ${r.reference}`);
        else assert.ok(r.error instanceof cipherd.UnexpectedKeyError, `${what} ${r.reference}: ${r.error}`);
      }
    };
    const collect = async <T>(results: AsyncIterable<cipherd.ItemResult<T>>) => {
      const all: cipherd.ItemResult<T>[] = [];
      for await (const r of results) all.push(r);
      return all;
    };

    check("decryptBatch", await c.decryptBatch(items, { expectedKey: email }));
    check("reEncryptBatch", await c.reEncryptBatch(items, { expectedKey: email }));
    check("decryptStream", await collect(c.decryptStream(items, { expectedKey: email })));
    check("reEncryptStream", await collect(c.reEncryptStream(items, { expectedKey: email })));
    assert.ok((await c.decryptBatch(items)).every((r) => r.error === undefined));
  });
});
