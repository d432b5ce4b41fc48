/** Values that hold plaintexts or payloads keep them out of JSON, so logging a result leaks nothing. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ItemResult, NotFoundError, errorFor, parseCiphertext } from "../src/index.js";

test("results and envelopes keep plaintexts and payloads out of JSON", () => {
  const result = new ItemResult("r", new TextEncoder().encode("plain-secret"), undefined, 1);
  const envelope = parseCiphertext("<payments/v1:gcm>gw5GY34Xkpqq9in8UYlMyOsKre8Gnfy4mPT95w==");
  for (const json of [JSON.stringify(result), JSON.stringify(envelope)]) {
    assert.ok(!json.includes("plain") && !json.includes("gw5GY34") && !json.includes("131"), json);
  }
});

test("unwrap throws the item's error", () => {
  const error = errorFor(5, "key 'x' not found");
  const result = new ItemResult<Uint8Array>("r", undefined, error);
  assert.equal(result.ok, false);
  assert.throws(
    () => result.unwrap(),
    (e: unknown) => e === error && e instanceof NotFoundError,
  );
});
