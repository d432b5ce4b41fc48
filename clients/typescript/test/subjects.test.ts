/**
 * Data subjects: the subject options of the encrypting calls, SubjectService's calls and their types, the two
 * reasons' errors and the subject-bound header. A fake SubjectService and CryptoService (grpc-js, in process)
 * record what requests carry, which the real server cannot be asked; the others run against the real jar.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import {
  type handleBidiStreamingCall,
  type handleUnaryCall,
  Metadata,
  Server,
  ServerCredentials,
  status,
} from "@grpc/grpc-js";
import * as cipherd from "../src/index.js";
import {
  CryptoServiceService,
  type EncryptBatchRequest,
  type EncryptBatchResponse,
  type EncryptRequest,
  type EncryptResponse,
  type EncryptStreamRequest,
  type EncryptStreamResponse,
  type GenerateDataKeyRequest,
  type GenerateDataKeyResponse,
} from "../src/gen/cipherd/v1/crypto_service.js";
import {
  type EraseSubjectRequest,
  type EraseSubjectResponse,
  type EraseSubjectsRequest,
  type EraseSubjectsResponse,
  type GetSubjectRequest,
  type GetSubjectResponse,
  type SubjectErasure,
  SubjectErasureOutcome,
  SubjectServiceService,
  SubjectState,
} from "../src/gen/cipherd/v1/subject_service.js";
import { ErrorInfo } from "../src/gen/google/rpc/error_details.js";
import { Status } from "../src/gen/google/rpc/status.js";
import { Any } from "../src/gen/google/protobuf/any.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const ERASED_AT = new Date("2026-11-26T20:00:00Z");

/** The fake's state: erased ids, the encrypting requests it got, EraseSubjects' call sizes. */
class Fake {
  erased = new Set<string>();
  requests: unknown[] = [];
  calls: number[] = [];
  short = false;

  erase(keyName: string, subject: string): SubjectErasure {
    if (subject.startsWith("nokey-")) {
      return {
        outcome: SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_NO_KEY,
        eraseTime: undefined,
        receipt: undefined,
      };
    }
    if (this.erased.has(subject)) {
      return {
        outcome: SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED,
        eraseTime: ERASED_AT,
        receipt: undefined,
      };
    }
    this.erased.add(subject);
    return {
      outcome: SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ERASED,
      eraseTime: ERASED_AT,
      receipt: {
        keyName,
        subjectHash: "ab".repeat(32),
        eraseTime: ERASED_AT,
        trail: "audit.jsonl",
        auditSeq: this.erased.size,
        recordHash: "cd".repeat(32),
      },
    };
  }
}

function subjectErased(keyName: string) {
  const info = ErrorInfo.fromPartial({
    reason: "SUBJECT_ERASED",
    domain: "cipherd.io",
    metadata: { key: keyName, erase_time: "2026-11-26T20:00:00Z" },
  });
  const details = Status.encode(
    Status.fromPartial({
      code: status.FAILED_PRECONDITION,
      message: "the subject was erased",
      details: [
        Any.fromPartial({
          typeUrl: "type.googleapis.com/google.rpc.ErrorInfo",
          value: ErrorInfo.encode(info).finish(),
        }),
      ],
    }),
  ).finish();
  const metadata = new Metadata();
  metadata.set("grpc-status-details-bin", Buffer.from(details));
  return { code: status.FAILED_PRECONDITION, details: "the subject was erased", metadata };
}

async function serveFake(fake: Fake): Promise<{ server: Server; address: string }> {
  const server = new Server();
  const eraseSubject: handleUnaryCall<EraseSubjectRequest, EraseSubjectResponse> = (call, callback) =>
    callback(null, { erasure: fake.erase(call.request.keyName, call.request.subject) });
  const eraseSubjects: handleUnaryCall<EraseSubjectsRequest, EraseSubjectsResponse> = (call, callback) => {
    fake.calls.push(call.request.items.length);
    const results = call.request.items.map((item) =>
      item.subject.startsWith("bad-")
        ? {
            reference: item.reference,
            erasure: undefined,
            error: { code: status.INVALID_ARGUMENT, reason: "INVALID_ARGUMENT", message: "m" },
          }
        : { reference: item.reference, erasure: fake.erase(call.request.keyName, item.subject), error: undefined },
    );
    callback(null, { results: fake.short ? results.slice(1) : results });
  };
  const getSubject: handleUnaryCall<GetSubjectRequest, GetSubjectResponse> = (call, callback) =>
    callback(
      null,
      fake.erased.has(call.request.subject)
        ? { state: SubjectState.SUBJECT_STATE_ERASED, createTime: ERASED_AT, eraseTime: ERASED_AT, keyVersion: 0 }
        : { state: SubjectState.SUBJECT_STATE_NO_KEY, createTime: undefined, eraseTime: undefined, keyVersion: 0 },
    );
  server.addService(SubjectServiceService, { eraseSubject, eraseSubjects, getSubject });
  const encrypt: handleUnaryCall<EncryptRequest, EncryptResponse> = (call, callback) => {
    fake.requests.push(call.request);
    if (fake.erased.has(call.request.subject) && !call.request.renewErasedSubject) {
      callback(subjectErased(call.request.keyName));
      return;
    }
    callback(null, { ciphertext: "<users/s:gcm>AAAA", keyVersion: 0 });
  };
  const encryptBatch: handleUnaryCall<EncryptBatchRequest, EncryptBatchResponse> = (call, callback) => {
    fake.requests.push(call.request);
    callback(null, {
      results: call.request.items.map((i) => ({
        reference: i.reference,
        ciphertext: "<k/s:gcm>AAAA",
        error: undefined,
        keyVersion: 0,
      })),
    });
  };
  const encryptStream: handleBidiStreamingCall<EncryptStreamRequest, EncryptStreamResponse> = (call) => {
    call.on("data", (r: EncryptStreamRequest) => {
      fake.requests.push(r);
      call.write({ result: { reference: r.reference, ciphertext: "<k/s:gcm>AAAA", error: undefined, keyVersion: 0 } });
    });
    call.on("end", () => call.end());
  };
  const generateDataKey: handleUnaryCall<GenerateDataKeyRequest, GenerateDataKeyResponse> = (call, callback) => {
    fake.requests.push(call.request);
    callback(null, { wrappedKey: "<k/s:gcm>AAAA", plaintextKey: new Uint8Array(32), keyVersion: 0 });
  };
  server.addService(CryptoServiceService, { encrypt, encryptBatch, encryptStream, generateDataKey });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { server, address: `127.0.0.1:${port}` };
}

describe("subjects against a fake server", () => {
  let fake: Fake;
  let server: Server;
  let c: cipherd.CipherdClient;
  before(async () => {
    fake = new Fake();
    const served = await serveFake(fake);
    server = served.server;
    c = new cipherd.CipherdClient(served.address, { insecure: true, timeoutMs: 10_000 });
  });
  after(() => {
    c?.close();
    server?.forceShutdown();
  });

  test("the subject options reach every encrypting request", async () => {
    fake.requests = [];
    const items = [
      { plaintext: bytes("a"), reference: "a" },
      { plaintext: bytes("b"), reference: "b", subject: "user-7" },
    ];
    await c.encrypt("users", bytes("x"), { subject: "user-8812", renewErasedSubject: true });
    await c.encryptBatch("users", items, { subject: "user-8812" });
    const streamed = [];
    for await (const r of c.encryptStream("users", items, { subject: "user-8812", renewErasedSubject: true })) {
      streamed.push(r.ok);
    }
    assert.deepEqual(streamed, [true, true]);
    await c.generateDataKey("users", { subject: "user-9", renewErasedSubject: true });
    await c.encrypt("users", bytes("plain"));
    const [encrypt, batch, s1, s2, dataKey, plain] = fake.requests as [
      EncryptRequest,
      EncryptBatchRequest,
      EncryptStreamRequest,
      EncryptStreamRequest,
      GenerateDataKeyRequest,
      EncryptRequest,
    ];
    assert.deepEqual([encrypt.subject, encrypt.renewErasedSubject], ["user-8812", true]);
    assert.deepEqual([batch.subject, batch.renewErasedSubject], ["user-8812", false]);
    assert.deepEqual(
      batch.items.map((i) => i.subject),
      ["", "user-7"],
    );
    assert.deepEqual(
      [s1.subject, s2.subject, s1.renewErasedSubject, s2.renewErasedSubject],
      ["user-8812", "user-7", true, true],
    );
    assert.deepEqual([dataKey.subject, dataKey.renewErasedSubject], ["user-9", true]);
    assert.deepEqual([plain.subject, plain.renewErasedSubject], ["", false]);
  });

  test("eraseSubject's outcomes and receipt, getSubject, and the erased subject's error", async () => {
    const first = await c.eraseSubject("users", "user-8812");
    assert.equal(first.outcome, "erased");
    assert.deepEqual(first.eraseTime, ERASED_AT);
    assert.deepEqual(first.receipt, {
      keyName: "users",
      subjectHash: "ab".repeat(32),
      eraseTime: ERASED_AT,
      trail: "audit.jsonl",
      auditSeq: 1,
      recordHash: "cd".repeat(32),
    });
    const again = await c.eraseSubject("users", "user-8812");
    assert.equal(again.outcome, "already_erased");
    assert.equal(again.receipt, undefined);
    const none = await c.eraseSubject("users", "nokey-1");
    assert.equal(none.outcome, "no_key");
    assert.equal(none.eraseTime, undefined);

    const error = await c.encrypt("users", bytes("x"), { subject: "user-8812" }).then(
      () => assert.fail("an erased subject's encrypt succeeded"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof cipherd.SubjectErasedError && error instanceof cipherd.FailedPreconditionError);
    assert.ok(!(error instanceof cipherd.DecryptionFailedError));
    assert.deepEqual(error.eraseTime, ERASED_AT);
    assert.ok(!error.message.includes("user-8812"));
    await c.encrypt("users", bytes("x"), { subject: "user-8812", renewErasedSubject: true });

    assert.deepEqual(await c.getSubject("users", "user-8812"), {
      state: "erased",
      createTime: ERASED_AT,
      eraseTime: ERASED_AT,
      keyVersion: 0,
    });
    assert.equal((await c.getSubject("users", "user-1")).state, "no_key");
  });

  test("eraseSubjects: calls of 1000, one result per item in order, a short answer an error", async () => {
    fake.calls = [];
    const ids: (cipherd.SubjectItem | string)[] = Array.from({ length: 2500 }, (_, i) => ({
      subject: `many-${i}`,
      reference: String(i),
    }));
    ids[1234] = { subject: "bad-1234", reference: "1234" };
    const results = await c.eraseSubjects("users", ids);
    assert.deepEqual(fake.calls, [1000, 1000, 500]);
    assert.deepEqual(
      results.map((r) => r.reference),
      ids.map((_, i) => String(i)),
    );
    assert.ok(results[1234]!.error instanceof cipherd.InvalidArgumentError);
    assert.ok(results.every((r, i) => i === 1234 || r.value?.outcome === "erased"));
    fake.short = true;
    await assert.rejects(c.eraseSubjects("users", ["x", "y"]), /answered 1 results for 2 subjects/);
    fake.short = false;
  });
});

test("a subject-bound header names no version; malformed ones are refused", () => {
  const sealed = (mode: string, length: number) => `<users/s:${mode}>${Buffer.alloc(length, 0x5a).toString("base64")}`;
  for (const [mode, minimum] of [
    ["gcm", 28],
    ["chacha", 28],
    ["xgcm", 40],
  ] as const) {
    const text = sealed(mode, cipherd.SUBJECT_REF_SIZE + minimum);
    const envelope = cipherd.parseCiphertext(text);
    assert.ok(envelope.subjectBound);
    assert.equal(envelope.keyVersion, 0);
    assert.equal(envelope.header, `<users/s:${mode}>`);
    assert.equal(envelope.format(), text);
  }
  const cases: [string, string][] = [
    [sealed("gcm", cipherd.SUBJECT_REF_SIZE + 27), "payload_length_invalid"],
    [sealed("cbc", 64), "mode_unknown"],
    [sealed("siv", 64), "mode_unknown"],
    [sealed("hmac", 64), "mode_unknown"],
    [`<users/S:gcm>${Buffer.alloc(44).toString("base64")}`, "version_invalid"],
    [`<users/s1:gcm>${Buffer.alloc(44).toString("base64")}`, "version_invalid"],
    ["<users/s:gcm>", "payload_empty"],
  ];
  for (const [text, defect] of cases) {
    assert.throws(
      () => cipherd.parseCiphertext(text),
      (e: unknown) => e instanceof cipherd.InvalidCiphertextError && e.defect === defect,
    );
  }
});

describe("subjects against the server", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let server: RunningServer;
  let c: cipherd.CipherdClient;
  before(async () => {
    server = await startServer(tempDir("subjects"), []);
    c = new cipherd.CipherdClient(server.address);
  });
  after(async () => {
    c?.close();
    await server?.stop();
  });

  /** A fresh gcm key. */
  async function subjectKey(): Promise<string> {
    const key = `subj-${randomUUID().slice(0, 12)}`;
    await c.createKey(key);
    return key;
  }

  test("erasing one subject leaves the others", async () => {
    const key = await subjectKey();
    const context = bytes("users.email");
    const alice = await c.encrypt(key, bytes("alice@example.com"), { context, subject: "user-1" });
    const bob = await c.encrypt(key, bytes("bob@example.com"), { context, subject: "user-2" });
    assert.ok(cipherd.parseCiphertext(alice).subjectBound && !alice.includes("user-1"));
    assert.ok((await c.inspect(alice)).subjectBound);
    const erasure = await c.eraseSubject(key, "user-1");
    assert.equal(erasure.outcome, "erased");
    const error = await c.decrypt(alice, { context }).then(
      () => assert.fail("the erased subject's data decrypted"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof cipherd.SubjectErasedError);
    assert.deepEqual(error.eraseTime, erasure.eraseTime);
    assert.equal(Buffer.from(await c.decrypt(bob, { context })).toString(), "bob@example.com");
    await assert.rejects(c.encrypt(key, bytes("x"), { subject: "user-1" }), cipherd.SubjectErasedError);
    const renewed = await c.encrypt(key, bytes("new"), { subject: "user-1", renewErasedSubject: true });
    assert.equal(Buffer.from(await c.decrypt(renewed)).toString(), "new");
    const results = await c.eraseSubjects(key, ["user-2", "user-never"]);
    assert.deepEqual(
      results.map((r) => r.value?.outcome),
      ["erased", "no_key"],
    );
    const [decrypted] = await c.decryptBatch([{ ciphertext: bob, context }]);
    assert.ok(decrypted!.error instanceof cipherd.SubjectErasedError);
  });
});
