/** The tests' own XAES-256-GCM and AES-SIV against the vectors of their specifications. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { sivOpen, xaesOpen } from "./reference-ciphers.js";

const h = (s: string) => Buffer.from(s.replace(/\s/g, ""), "hex");

test("XAES-256-GCM: the two C2SP vectors", () => {
  const nonce = Buffer.from("ABCDEFGHIJKLMNOPQRSTUVWX");
  const open = (key: number, ciphertext: string, aad: string) =>
    xaesOpen(Buffer.alloc(32, key), Buffer.concat([nonce, h(ciphertext)]), Buffer.from(aad)).toString();
  assert.equal(open(1, "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271", ""), "XAES-256-GCM");
  assert.equal(
    open(3, "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d", "c2sp.org/XAES-256-GCM"),
    "XAES-256-GCM",
  );
  assert.throws(() => open(3, "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d", ""));
});

test("AES-SIV: RFC 5297 A.1 (deterministic), and a changed byte is refused", () => {
  const key = h("fffefdfc fbfaf9f8 f7f6f5f4 f3f2f1f0 f0f1f2f3 f4f5f6f7 f8f9fafb fcfdfeff");
  const ad = h("10111213 14151617 18191a1b 1c1d1e1f 20212223 24252627");
  const output = h("85632d07 c6e8f37f 950acd32 0a2ecc93 40c02b96 90c4dc04 daef7f6a fe5c");
  assert.equal(sivOpen(key, output, ad).toString("hex"), "112233445566778899aabbccddee");
  output[20]! ^= 1;
  assert.throws(() => sivOpen(key, output, ad), /synthetic IV/);
});

test("AES-SIV: RFC 5297 A.2 (three associated-data components, a plaintext over one block)", () => {
  const key = h("7f7e7d7c 7b7a7978 77767574 73727170 40414243 44454647 48494a4b 4c4d4e4f");
  const ads = [
    h("00112233 44556677 8899aabb ccddeeff deaddada deaddada ffeeddcc bbaa9988 77665544 33221100"),
    h("10203040 50607080 90a0"),
    h("09f91102 9d74e35b d84156c5 635688c0"),
  ];
  const output =
    h(`7bdb6e3b 432667eb 06f4d14b ff2fbd0f cb900f2f ddbe4043 26601965 c889bf17 dba77ceb 094fa663 b7a3f748 ba8af829
    ea64ad54 4a272e9c 485b62a3 fd5c0d`);
  assert.equal(sivOpen(key, output, ...ads).toString(), "this is some plaintext to encrypt using SIV-AES");
});
