/**
 * Wrapped key import: material wrapped here with node:crypto (RSA-OAEP-SHA-256 and OpenSSL's RFC 5649 wrap)
 * undone with the private key, and, on a server without --allow-plaintext-key-import, imported wrapped (a gcm
 * key, MySQL's passphrase folded here) while the same material in the clear is refused.
 */
import assert from "node:assert/strict";
import { constants, createDecipheriv, generateKeyPairSync, privateDecrypt, randomBytes, randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as cipherd from "../src/index.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const MYSQL_HELLO = "FF06A56B4E88C828A010E9BD0CE70A89";
const freshName = () => `t-${randomUUID().slice(0, 13)}`;

test("wrapKeyMaterial is RSA-OAEP-SHA-256 of an AES-256 key, then RFC 5649 under it", () => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 3072 });
  const material = randomBytes(24);
  const blob = Buffer.from(
    cipherd.wrapKeyMaterial(publicKey.export({ type: "spki", format: "pem" }) as string, material),
  );
  assert.equal(blob.length, 384 + 32);
  const ephemeral = privateDecrypt(
    { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    blob.subarray(0, 384),
  );
  const kwp = createDecipheriv("id-aes256-wrap-pad", ephemeral, Buffer.from("a65959a6", "hex"));
  assert.deepEqual(Buffer.concat([kwp.update(blob.subarray(384)), kwp.final()]), material);
});

describe("wrapped import", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("key-import"), [], undefined, false);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  test("plaintext material is refused, wrapped material imports and encrypts", async () => {
    const name = freshName();
    await assert.rejects(c.importKey(name, randomBytes(32)), cipherd.PlaintextImportDisabledError);
    const key = await c.importKeyWrapped(name, randomBytes(32), { mode: "gcm" });
    assert.equal(key.versions.at(-1)?.imported, true);
    const ciphertext = await c.encrypt(name, new TextEncoder().encode("hello"));
    assert.equal(new TextDecoder().decode(await c.decrypt(ciphertext)), "hello");
  });

  test("a job names its key and algorithm; a MySQL passphrase goes folded and wrapped", async () => {
    const name = freshName();
    const job = await c.createImportJob(name, { wrapping: "rsa_4096" });
    assert.equal(job.keyName, name);
    assert.equal(job.wrapping, "rsa_4096");
    assert.ok(job.expireTime.getTime() > Date.now() + 23 * 3600 * 1000);
    await c.importKeyWrapped(name, new Uint8Array(0), { legacyCipher: "mysql_aes_ecb", passphrase: "1234567890" });
    await c.createKey(`${name}-gcm`);
    const one = await c.reEncrypt({ keyName: name, hex: MYSQL_HELLO }, { keyName: `${name}-gcm` });
    assert.equal(new TextDecoder().decode(await c.decrypt(one.ciphertext)), "HELLO");
  });
});
