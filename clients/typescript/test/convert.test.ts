/** Requests built from arguments and values read from responses, without a server. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { inspect } from "node:util";
import * as convert from "../src/convert.js";
import { Mode as ProtoMode } from "../src/gen/cipherd/v1/keys.js";
import { DataKey, KEY_MODES, MODES } from "../src/index.js";

test("every key mode maps to the proto enum of its name and back", () => {
  for (const mode of KEY_MODES) assert.equal(ProtoMode[convert.modeToProto(mode)], `MODE_${mode.toUpperCase()}`);
  for (const mode of MODES) assert.equal(convert.modeFromProto(convert.modeToProto(mode)), mode);
  assert.equal(convert.modeToProto(undefined), ProtoMode.MODE_UNSPECIFIED);
  assert.throws(() => convert.modeFromProto(ProtoMode.MODE_HMAC), /unknown mode/);
});

test("a string value is indexed as its UTF-8; a lone surrogate is refused, not replaced", () => {
  assert.deepEqual(convert.indexValue("Straße"), new Uint8Array([0x53, 0x74, 0x72, 0x61, 0xc3, 0x9f, 0x65]));
  assert.deepEqual(convert.indexValue("😀"), new Uint8Array([0xf0, 0x9f, 0x98, 0x80]));
  const bytes = new Uint8Array([0xff, 0x00]);
  assert.equal(convert.indexValue(bytes), bytes);
  assert.throws(() => convert.indexValue("a\ud800b"), TypeError);
  assert.throws(() => convert.indexItem({ value: "\udc00", reference: "r" }), TypeError);
});

test("index options fill every field; unset steps are off and length 0 means the server's 32", () => {
  assert.deepEqual(convert.indexFields({}), {
    normalization: { trim: false, nfkc: false, casefold: false },
    lengthBytes: 0,
  });
  assert.deepEqual(convert.indexFields({ normalization: { casefold: true }, length: 8 }), {
    normalization: { trim: false, nfkc: false, casefold: true },
    lengthBytes: 8,
  });
  assert.deepEqual(convert.indexItem("x"), { reference: "", value: new Uint8Array([0x78]) });
});

test("batch index results keep order, references and per-item errors", () => {
  const results = convert.indexResults({
    results: [
      { reference: "a", index: new Uint8Array([1, 2]), keyVersion: 3 },
      { reference: "b", error: { code: 3, message: "value is not UTF-8", reason: "INVALID_ARGUMENT" }, keyVersion: 0 },
    ],
  });
  assert.deepEqual(
    results.map((r) => [r.reference, r.ok, r.keyVersion]),
    [
      ["a", true, 3],
      ["b", false, 0],
    ],
  );
  assert.deepEqual(results[0]!.unwrap(), new Uint8Array([1, 2]));
  assert.match(results[1]!.error!.message, /INVALID_ARGUMENT: value is not UTF-8/);
  assert.equal(results[1]!.error!.reason, "INVALID_ARGUMENT");
});

test("a data key keeps its plaintext out of JSON and console output; omitted, it is undefined", () => {
  const key = convert.dataKey({
    plaintextKey: new Uint8Array(32).fill(0xab),
    wrappedKey: "<k/v1:gcm>AAAA",
    keyVersion: 1,
  });
  assert.ok(key instanceof DataKey && key.plaintextKey?.length === 32);
  for (const shown of [JSON.stringify(key), inspect(key), `${inspect({ nested: key })}`]) {
    assert.ok(!/ab,|171|abab|q6ur/i.test(shown), shown);
    assert.ok(shown.includes("<k/v1:gcm>"), shown);
  }
  assert.equal(
    convert.dataKey({ plaintextKey: new Uint8Array(0), wrappedKey: "w", keyVersion: 1 }).plaintextKey,
    undefined,
  );
});
