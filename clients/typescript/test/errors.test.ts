/** The one status-to-error table, for calls and for batch items. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { status } from "@grpc/grpc-js";
import {
  CipherdError, DecryptionFailedError, ERROR_BY_STATUS, errorFor, fromServiceError, InvalidArgumentError, NotFoundError,
} from "../src/index.js";

for (const [code, cls] of ERROR_BY_STATUS) {
  test(`${status[code]} maps to ${cls.name}`, () => {
    const error = errorFor(code, "why");
    assert.ok(error instanceof cls && error instanceof CipherdError);
    assert.equal(error.code, code);
    assert.equal(error.message, `${status[code]}: why`);
  });
}

test("an unlisted status is a plain CipherdError with its code", () => {
  const error = errorFor(status.DATA_LOSS, "lost");
  assert.equal(error.constructor, CipherdError);
  assert.equal(error.code, status.DATA_LOSS);
  assert.equal(errorFor(99, "?").code, status.UNKNOWN);
});

test("decryption failed is its own InvalidArgumentError", () => {
  const error = errorFor(status.INVALID_ARGUMENT, "decryption failed");
  assert.ok(error instanceof DecryptionFailedError && error instanceof InvalidArgumentError);
  assert.ok(!(errorFor(status.INVALID_ARGUMENT, "bad name") instanceof DecryptionFailedError));
});

test("a grpc-js ServiceError goes through the same table", () => {
  const error = fromServiceError(Object.assign(new Error("x"), { code: status.NOT_FOUND, details: "no key", metadata: undefined }));
  assert.ok(error instanceof NotFoundError);
  assert.equal(error.details, "no key");
});
