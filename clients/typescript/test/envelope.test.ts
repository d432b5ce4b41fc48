/** Every case of proto/testdata/envelopes.json through parseCiphertext. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { InvalidArgumentError, InvalidCiphertextError, parseCiphertext } from "../src/index.js";

interface Valid {
  name: string;
  ciphertext: string;
  key_name: string;
  key_version: number;
  mode: string;
  payload_hex: string;
  /** Set for a subject-bound "<name/s:mode>" vector, whose key_version is 0. */
  subject_bound?: boolean;
}
interface Invalid {
  name: string;
  ciphertext: string;
  reason: string;
}
const vectors = JSON.parse(
  readFileSync(resolve(fileURLToPath(import.meta.url), "../../../../../proto/testdata/envelopes.json"), "utf8"),
) as { reasons: Record<string, string>; valid: Valid[]; invalid: Invalid[] };

describe("valid envelopes parse to their fields and format back", () => {
  for (const c of vectors.valid) {
    test(c.name, () => {
      const e = parseCiphertext(c.ciphertext);
      assert.equal(e.keyName, c.key_name);
      assert.equal(e.keyVersion, c.key_version);
      assert.equal(e.mode, c.mode);
      assert.equal(e.subjectBound, c.subject_bound ?? false);
      assert.equal(Buffer.from(e.payload).toString("hex"), c.payload_hex);
      assert.equal(e.format(), c.ciphertext);
    });
  }
});

describe("invalid envelopes are rejected for their reason", () => {
  for (const c of vectors.invalid) {
    test(c.name, () => {
      assert.throws(
        () => parseCiphertext(c.ciphertext),
        (e: unknown) => {
          assert.ok(e instanceof InvalidCiphertextError);
          assert.equal(e.defect, c.reason);
          const payload = c.ciphertext.slice(c.ciphertext.indexOf(">") + 1);
          if (payload.length >= 8) assert.ok(!e.message.includes(payload), "the message must not quote the ciphertext");
          return true;
        },
      );
    });
  }
});

test("every reason has a case", () => {
  assert.deepEqual(new Set(vectors.invalid.map((c) => c.reason)), new Set(Object.keys(vectors.reasons)));
});

test("a format error is an InvalidArgumentError", () => {
  assert.throws(() => parseCiphertext("<demo/v0:gcm>AAAA"), InvalidArgumentError);
});
