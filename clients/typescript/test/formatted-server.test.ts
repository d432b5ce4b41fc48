/** Format-preserving values against the real jar (they need issue 34's FormatPreservingService in it). */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const bytes = (s: string) => new TextEncoder().encode(s);

function luhnValid(number: string): boolean {
  const digits = [...number]
    .filter((ch) => ch >= "0" && ch <= "9")
    .map(Number)
    .reverse();
  return digits.reduce((sum, d, i) => sum + (i % 2 === 0 ? d : d > 4 ? 2 * d - 9 : 2 * d), 0) % 10 === 0;
}

describe("format-preserving values against the server", {
  skip: jar() === undefined && "no server jar: run make build",
}, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("formatted"), []);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  async function ff1Key(prefix: string, fpeFormat: cipherd.FpeFormatInput): Promise<string> {
    const key = `${prefix}-${randomUUID().slice(0, 10)}`;
    await c.createKey(key, { mode: "ff1", fpeFormat });
    return key;
  }

  test("the formatted streams keep order, fail an item alone and resume after the last reference", async () => {
    const key = await ff1Key("ts-fpe-stream", { template: "digits" });
    const context = bytes("users.national_id");
    const plain = Array.from({ length: 600 }, (_, i) => ({
      value: i === 250 ? "12345X7890" : String(i * 7919).padStart(10, "0"),
      reference: String(i),
    }));
    const encrypted = [];
    for await (const r of c.encryptFormattedStream(key, plain, { context })) encrypted.push(r);
    assert.deepEqual(
      encrypted.map((r) => r.reference),
      plain.map((p) => p.reference),
    );
    assert.ok(encrypted[250]?.error instanceof cipherd.InvalidArgumentError);
    const stored = encrypted
      .filter((r) => r.ok)
      .map((r) => ({ ciphertext: r.unwrap() as cipherd.FormattedValue, reference: r.reference }));
    const decrypted = [];
    for await (const r of c.decryptFormattedStream(key, stored, { context })) decrypted.push(r.unwrap());
    assert.deepEqual(
      decrypted,
      plain.filter((_, i) => i !== 250).map((p) => p.value),
    );
    await c.rotateKey(key);
    const moved: cipherd.FormattedRewrapped[] = [];
    let last = "";
    for await (const r of c.reEncryptFormattedStream(key, stored, { context })) {
      moved.push(r.unwrap() as cipherd.FormattedRewrapped);
      last = r.reference;
      if (moved.length === 300) break; // leaving the loop cancels the call; resumed after its last reference
    }
    for await (const r of c.reEncryptFormattedStream(key, stored, { context, resumeAfter: last })) {
      moved.push(r.unwrap() as cipherd.FormattedRewrapped);
    }
    assert.equal(moved.length, 599);
    assert.ok(moved.every((m) => m.keyVersion === 2 && m.sourceKeyVersion === 1));
    assert.equal(
      await c.decryptFormatted(key, moved.at(-1) as cipherd.FormattedValue, { context }),
      plain.at(-1)?.value,
    );
  });

  test("digits round-trip and rewrap across a rotation; the wrong version is a wrong value", async () => {
    const key = await ff1Key("ts-fpe-digits", { template: "digits" });
    const context = bytes("users.national_id");
    const v1 = await c.encryptFormatted(key, "0123456789", { context });
    assert.equal(v1.keyVersion, 1);
    assert.match(v1.value, /^\d{10}$/);
    assert.notEqual(v1.value, "0123456789");
    assert.equal(await c.decryptFormatted(key, v1, { context }), "0123456789");
    await c.rotateKey(key);
    const moved = await c.reEncryptFormatted(key, v1, { context });
    assert.deepEqual([moved.keyVersion, moved.sourceKeyVersion], [2, 1]);
    assert.equal(await c.decryptFormatted(key, moved, { context }), "0123456789");
    const wrong = await c.decryptFormatted(key, { value: v1.value, keyVersion: 2 }, { context });
    assert.notEqual(wrong, "0123456789");
    await assert.rejects(
      c.decryptFormatted(key, { value: v1.value, keyVersion: 0 }, { context }),
      cipherd.InvalidArgumentError,
    );
    const k = await c.getKey(key);
    assert.equal(k.versions[1]?.fpeFormat?.template, cipherd.FpeTemplate.FPE_TEMPLATE_DIGITS);
  });

  test("card numbers stay Luhn-valid, keep six and four, and mask to the last four", async () => {
    const refused = await ff1Key("ts-fpe-card-small", { template: "card_number" });
    await assert.rejects(
      c.encryptFormatted(refused, "4111 1111 1111 1111"),
      (e: unknown) => e instanceof cipherd.InvalidArgumentError && !e.message.includes("4111"),
    );
    const key = await ff1Key("ts-fpe-card", { template: "card_number", acceptSmallDomain: true });
    const ct = await c.encryptFormatted(key, "4111 1111 1111 1111");
    assert.equal(ct.value.slice(0, 7), "4111 11");
    assert.equal(ct.value.slice(-4), "1111");
    assert.ok(luhnValid(ct.value), ct.keyVersion.toString());
    assert.equal(await c.maskFormatted(key, ct), "•••• •••• •••• 1111");
    const batch = await c.encryptFormattedBatch(key, ["5555 5555 5555 4444", "not a card"]);
    assert.ok(batch[0]?.ok);
    assert.ok(batch[1]?.error instanceof cipherd.InvalidArgumentError);
    const back = await c.decryptFormattedBatch(key, [batch[0]?.unwrap() as cipherd.FormattedValue]);
    assert.equal(back[0]?.unwrap(), "5555 5555 5555 4444");
  });
});
