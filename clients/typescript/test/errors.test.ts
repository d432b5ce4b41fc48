/** The one status-to-error mapping, for calls and for batch items, and every case of proto/testdata/errors.json. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Metadata, status } from "@grpc/grpc-js";
import { ErrorReason } from "../src/gen/cipherd/v1/error_reason.js";
import { ErrorInfo } from "../src/gen/google/rpc/error_details.js";
import { Status } from "../src/gen/google/rpc/status.js";
import {
  AbortedError,
  AlreadyExistsError,
  AuditUnavailableError,
  SubjectErasedError,
  SubjectQuotaExceededError,
  SubjectStoreNotConfiguredError,
  PlaintextImportDisabledError,
  ImportJobUnusableError,
  KeyMaterialUnusableError,
  KeyNotExportableError,
  CancelledError,
  CipherdError,
  DeadlineExceededError,
  DecryptionFailedError,
  ERROR_BY_REASON,
  ERROR_BY_STATUS,
  errorFor,
  FailedPreconditionError,
  fromItemError,
  fromServiceError,
  InternalError,
  InvalidArgumentError,
  InvalidCiphertextError,
  KeyDisabledError,
  KeyVersionDestroyedError,
  KeyVersionDestructionScheduledError,
  KeyVersionsInUseError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
  UnexpectedKeyError,
} from "../src/index.js";

/** The error kinds errors.json names, as this client's classes. */
const ERROR_BY_KIND: Readonly<Record<string, abstract new (...args: never[]) => CipherdError>> = {
  invalid_argument: InvalidArgumentError,
  decryption_failed: DecryptionFailedError,
  invalid_ciphertext: InvalidCiphertextError,
  unexpected_key: UnexpectedKeyError,
  not_found: NotFoundError,
  already_exists: AlreadyExistsError,
  failed_precondition: FailedPreconditionError,
  aborted: AbortedError,
  unavailable: UnavailableError,
  permission_denied: PermissionDeniedError,
  unauthenticated: UnauthenticatedError,
  resource_exhausted: ResourceExhaustedError,
  cancelled: CancelledError,
  deadline_exceeded: DeadlineExceededError,
  internal: InternalError,
  key_disabled: KeyDisabledError,
  key_version_destruction_scheduled: KeyVersionDestructionScheduledError,
  key_version_destroyed: KeyVersionDestroyedError,
  key_versions_in_use: KeyVersionsInUseError,
  audit_unavailable: AuditUnavailableError,
  subject_erased: SubjectErasedError,
  subject_quota_exceeded: SubjectQuotaExceededError,
  subject_store_not_configured: SubjectStoreNotConfiguredError,
  plaintext_import_disabled: PlaintextImportDisabledError,
  import_job_unusable: ImportJobUnusableError,
  key_not_exportable: KeyNotExportableError,
  key_material_unusable: KeyMaterialUnusableError,
};

interface ErrorCase {
  name: string;
  code: string;
  reason: string;
  message: string;
  error: string;
  also?: string[];
  metadata?: Record<string, string>;
  versions_in_use?: number[];
  inventory_source?: string;
}

const vectors = JSON.parse(
  readFileSync(resolve(fileURLToPath(import.meta.url), "../../../../../proto/testdata/errors.json"), "utf8"),
) as { cases: ErrorCase[] };

/** A grpc-js ServiceError as the server's status makes it: the ErrorInfo, if any, in grpc-status-details-bin. */
function serviceError(
  code: status,
  message: string,
  reason: string,
  domain = "cipherd.io",
  infoMetadata: Record<string, string> = {},
) {
  const metadata = new Metadata();
  if (reason !== "") {
    const info = ErrorInfo.encode({ reason, domain, metadata: infoMetadata }).finish();
    const details = [{ typeUrl: "type.googleapis.com/google.rpc.ErrorInfo", value: info }];
    metadata.set("grpc-status-details-bin", Buffer.from(Status.encode({ code, message, details }).finish()));
  }
  return Object.assign(new Error(`${code} ${status[code]}: ${message}`), { code, details: message, metadata });
}

function kindClass(kind: string) {
  const cls = ERROR_BY_KIND[kind];
  assert.ok(cls !== undefined, `errors.json names an error kind this test does not map: ${kind}`);
  return cls;
}

function assertMatches(error: CipherdError, c: ErrorCase, code: status) {
  const expected = new Set([c.error, ...(c.also ?? [])]);
  for (const kind of expected) {
    const cls = kindClass(kind);
    assert.ok(error instanceof cls, `${error.name} is not a ${cls.name} (${kind})`);
  }
  for (const [kind, cls] of Object.entries(ERROR_BY_KIND)) {
    if (!expected.has(kind)) assert.ok(!(error instanceof cls), `${error.name} is also a ${cls.name} (${kind})`);
  }
  assert.equal(error.code, code);
  assert.equal(error.reason, c.reason);
  assert.equal(error.details, c.message);
}

describe("proto/testdata/errors.json", () => {
  assert.ok(vectors.cases.length > 0);
  for (const c of vectors.cases) {
    const code = status[c.code as keyof typeof status];
    describe(c.name, () => {
      test("from a failed call", () => {
        assert.equal(typeof code, "number", `unknown status ${c.code}`);
        const error = fromServiceError(serviceError(code, c.message, c.reason, "cipherd.io", c.metadata));
        assertMatches(error, c, code);
        assert.deepEqual({ ...error.metadata }, c.metadata ?? {});
        if (c.versions_in_use !== undefined) {
          assert.ok(error instanceof KeyVersionsInUseError);
          assert.deepEqual(error.versions, c.versions_in_use);
          assert.equal(error.source, c.inventory_source);
        }
      });
      test("from an ItemError", () => {
        const error = fromItemError({ code, message: c.message, reason: c.reason });
        assertMatches(error, c, code);
        assert.deepEqual({ ...error.metadata }, {}); // an ItemError carries none
      });
    });
  }
});

for (const [code, cls] of ERROR_BY_STATUS) {
  test(`${status[code]} maps to ${cls.name}`, () => {
    const error = errorFor(code, "why");
    assert.ok(error instanceof cls && error instanceof CipherdError);
    assert.equal(error.code, code);
    assert.equal(error.message, `${status[code]}: why`);
    assert.equal(error.reason, "");
  });
}

describe("the schema's ErrorReason", () => {
  const sent = Object.keys(ErrorReason).filter(
    (name) => Number.isNaN(Number(name)) && name !== "ERROR_REASON_UNSPECIFIED" && name !== "UNRECOGNIZED",
  );

  test("every reason but the zero value has a class, and no other name does", () => {
    assert.ok(sent.length > 0);
    assert.deepEqual([...ERROR_BY_REASON.keys()].sort(), [...sent].sort());
  });

  for (const reason of sent) {
    test(`${reason} under its status is its class, for a call and an item`, () => {
      const cls = ERROR_BY_REASON.get(reason)!;
      const code = new cls("m", reason).code;
      const byStatus = ERROR_BY_STATUS.get(code);
      assert.ok(byStatus !== undefined && cls.prototype instanceof CipherdError);
      assert.ok(cls === byStatus || cls.prototype instanceof byStatus, `${cls.name} refines ${byStatus.name}`);
      const forms = [fromServiceError(serviceError(code, "m", reason)), fromItemError({ code, message: "m", reason })];
      for (const error of forms) {
        assert.equal(error.constructor, cls);
        assert.equal(error.reason, reason);
        assert.equal(error.code, code);
      }
    });
  }
});

test("an unlisted status is a plain CipherdError with its code", () => {
  const error = errorFor(status.DATA_LOSS, "lost", "SOME_FUTURE_REASON");
  assert.equal(error.constructor, CipherdError);
  assert.equal(error.code, status.DATA_LOSS);
  assert.equal(error.reason, "SOME_FUTURE_REASON");
  assert.equal(errorFor(99, "?").code, status.UNKNOWN);
});

test("a reason never moves an error to another status", () => {
  const error = errorFor(status.INTERNAL, "decryption failed", "DECRYPTION_FAILED");
  assert.ok(error instanceof InternalError && !(error instanceof InvalidArgumentError));
  assert.equal(error.reason, "DECRYPTION_FAILED");
});

test("an ErrorInfo of another domain is not cipherd's reason", () => {
  const error = fromServiceError(serviceError(status.INVALID_ARGUMENT, "x", "DECRYPTION_FAILED", "example.com"));
  assert.ok(error instanceof InvalidArgumentError && !(error instanceof DecryptionFailedError));
  assert.equal(error.reason, "");
});

test("unreadable status details fall back to the status code", () => {
  const metadata = new Metadata();
  metadata.set("grpc-status-details-bin", Buffer.from([0xff, 0xff, 0xff]));
  const error = fromServiceError(
    Object.assign(new Error("x"), { code: status.NOT_FOUND, details: "no key", metadata }),
  );
  assert.ok(error instanceof NotFoundError);
  assert.equal(error.reason, "");
});

test("an ItemError-less failed item is UNKNOWN", () => {
  assert.equal(fromItemError(undefined).code, status.UNKNOWN);
});

test("a grpc-js ServiceError without metadata goes by its code", () => {
  const error = fromServiceError(
    Object.assign(new Error("x"), { code: status.NOT_FOUND, details: "no key", metadata: undefined }),
  );
  assert.ok(error instanceof NotFoundError);
  assert.equal(error.details, "no key");
});

test("versions in use that do not parse name none", () => {
  const error = fromServiceError(
    serviceError(status.FAILED_PRECONDITION, "x", "KEY_VERSIONS_IN_USE", "cipherd.io", { versions: "1,two" }),
  );
  assert.ok(error instanceof KeyVersionsInUseError);
  assert.deepEqual(error.versions, []);
});
