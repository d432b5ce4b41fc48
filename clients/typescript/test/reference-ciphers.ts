/**
 * XAES-256-GCM and AES-SIV decryption written from their specifications (c2sp.org/XAES-256-GCM, RFC 5297)
 * on node:crypto's raw AES, to check what the server's xgcm and siv produce with an imported key.
 * reference-ciphers.test.ts checks them against the specifications' own vectors.
 */
import { createCipheriv, createDecipheriv, timingSafeEqual } from "node:crypto";

const aesBlock = (key: Buffer, block: Buffer) =>
  createCipheriv(`aes-${key.length * 8}-ecb`, key, null)
    .setAutoPadding(false)
    .update(block);

/** Doubling in GF(2^128) (the CMAC subkey step, and dbl in S2V). */
function dbl(block: Buffer): Buffer {
  const out = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) out[i] = ((block[i]! << 1) | (i < 15 ? block[i + 1]! >> 7 : 0)) & 0xff;
  if (block[0]! & 0x80) out[15]! ^= 0x87;
  return out;
}

const xor = (a: Buffer, b: Buffer) => Buffer.from(a.map((x, i) => x ^ b[i]!));

export function xaesOpen(key: Buffer, payload: Buffer, aad: Buffer): Buffer {
  const k1 = dbl(aesBlock(key, Buffer.alloc(16)));
  const nonce = payload.subarray(0, 24);
  const m = (i: number) => xor(Buffer.concat([Buffer.from([0, i, 0x58, 0]), nonce.subarray(0, 12)]), k1);
  const derived = Buffer.concat([aesBlock(key, m(1)), aesBlock(key, m(2))]);
  const gcm = createDecipheriv("aes-256-gcm", derived, nonce.subarray(12, 24));
  gcm.setAAD(aad);
  gcm.setAuthTag(payload.subarray(payload.length - 16));
  return Buffer.concat([gcm.update(payload.subarray(24, payload.length - 16)), gcm.final()]);
}

/** AES-CMAC (RFC 4493). */
function cmac(key: Buffer, message: Buffer): Buffer {
  const k1 = dbl(aesBlock(key, Buffer.alloc(16)));
  const complete = message.length > 0 && message.length % 16 === 0;
  const padded = complete
    ? Buffer.from(message)
    : Buffer.concat([message, Buffer.from([0x80]), Buffer.alloc(15 - (message.length % 16))]);
  const last = padded.length - 16;
  padded.set(xor(padded.subarray(last), complete ? k1 : dbl(k1)), last);
  const cbc = createCipheriv(`aes-${key.length * 8}-cbc`, key, Buffer.alloc(16))
    .setAutoPadding(false)
    .update(padded);
  return cbc.subarray(cbc.length - 16);
}

/** S2V (RFC 5297 §2.4); cipherd uses one associated-data component. */
function s2v(key: Buffer, ads: Buffer[], plaintext: Buffer): Buffer {
  let d = cmac(key, Buffer.alloc(16));
  for (const ad of ads) d = xor(dbl(d), cmac(key, ad));
  if (plaintext.length >= 16) {
    const t = Buffer.from(plaintext);
    t.set(xor(t.subarray(t.length - 16), d), t.length - 16);
    return cmac(key, t);
  }
  const padded = Buffer.concat([plaintext, Buffer.from([0x80]), Buffer.alloc(15 - plaintext.length)]);
  return cmac(key, xor(dbl(d), padded));
}

/** AES-SIV decryption of V ‖ C; the first half of the key is for S2V, the second for CTR. */
export function sivOpen(key: Buffer, payload: Buffer, ...ads: Buffer[]): Buffer {
  const [macKey, ctrKey] = [key.subarray(0, key.length / 2), key.subarray(key.length / 2)];
  const v = payload.subarray(0, 16);
  const counter = Buffer.from(v);
  counter[8]! &= 0x7f;
  counter[12]! &= 0x7f;
  const plaintext = createDecipheriv(`aes-${ctrKey.length * 8}-ctr`, ctrKey, counter).update(payload.subarray(16));
  if (!timingSafeEqual(s2v(macKey, ads, plaintext), v)) throw new Error("AES-SIV: the synthetic IV does not match");
  return plaintext;
}
