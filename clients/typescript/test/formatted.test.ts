/**
 * Format-preserving values against a fake FormatPreservingService and KeyAdminService (grpc-js, in process), which
 * record what requests carry (the real server cannot be asked): requests built right, batch results in order, errors
 * typed, and a ciphertext never sent without its version. The real server's side is in formatted-server.test.ts.
 */
import assert from "node:assert/strict";
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
  type FormattedBatchResult,
  FormatPreservingServiceService,
} from "../src/gen/cipherd/v1/format_preserving_service.js";
import { KeyAdminServiceService } from "../src/gen/cipherd/v1/key_admin_service.js";
import { FpeTemplate, Key, KeyVersion, Mode } from "../src/gen/cipherd/v1/keys.js";
import { ErrorInfo } from "../src/gen/google/rpc/error_details.js";
import { Status } from "../src/gen/google/rpc/status.js";
import { Any } from "../src/gen/google/protobuf/any.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const reverse = (s: string) => [...s].reverse().join("");
const NO_VERSION = "FF1 values carry no version: pass the key_version EncryptFormatted returned";

function noVersion() {
  const info = ErrorInfo.fromPartial({ reason: "INVALID_ARGUMENT", domain: "cipherd.io" });
  const details = Status.encode(
    Status.fromPartial({
      code: status.INVALID_ARGUMENT,
      message: NO_VERSION,
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
  return { code: status.INVALID_ARGUMENT, details: NO_VERSION, metadata };
}

function result(reference: string, value: string, keyVersion: number, sourceKeyVersion = 0): FormattedBatchResult {
  if (value === "bad") {
    const error = {
      code: status.INVALID_ARGUMENT,
      reason: "INVALID_ARGUMENT",
      message: "character 2 is not in the key's alphabet",
    };
    return { reference, value: undefined, error, keyVersion: 0, sourceKeyVersion: 0 };
  }
  return { reference, value, error: undefined, keyVersion, sourceKeyVersion };
}

// biome-ignore lint/suspicious/noExplicitAny: the fake records requests of every type
type Unary = handleUnaryCall<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: the fake's streams take requests of three types
type Bidi = handleBidiStreamingCall<any, any>;

/** What a test sets on the fake: the next stream call ends with UNAVAILABLE after that many answers (0: never). */
interface FakeControl {
  failStreamAfter: number;
}

/** A request as recorded: its bytes (contexts) as text, so that asserts compare them plainly. */
function recorded(value: unknown): unknown {
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  if (Array.isArray(value)) return value.map(recorded);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, recorded(v)]));
  }
  return value;
}

async function serveFake(
  requests: unknown[],
  control: FakeControl = { failStreamAfter: 0 },
): Promise<{ server: Server; address: string }> {
  const server = new Server();
  const streamed =
    (answer: (r: { reference: string; value: string; keyVersion: number }) => FormattedBatchResult): Bidi =>
    (call) => {
      const failAfter = control.failStreamAfter;
      control.failStreamAfter = 0;
      let answered = 0;
      let failed = false;
      call.on("data", (r) => {
        if (failed) return;
        if (failAfter > 0 && answered === failAfter) {
          failed = true;
          const details = "the fake server went away";
          call.emit("error", Object.assign(new Error(details), { code: status.UNAVAILABLE, details }));
          return;
        }
        requests.push(recorded(r));
        answered++;
        call.write({ result: answer(r) });
      });
      call.on("end", () => {
        if (!failed) call.end();
      });
    };
  const versioned =
    (answer: (r: { value: string; keyVersion: number }) => object): Unary =>
    (call, callback) => {
      requests.push(recorded(call.request));
      if (call.request.keyVersion === 0) callback(noVersion());
      else callback(null, answer(call.request));
    };
  const handlers: Record<string, Unary> = {
    encryptFormatted: (call, callback) => {
      requests.push(recorded(call.request));
      callback(null, { value: reverse(call.request.value), keyVersion: 3 });
    },
    decryptFormatted: versioned((r) => ({ value: reverse(r.value), keyVersion: r.keyVersion })),
    reEncryptFormatted: versioned((r) => ({ value: `re-${r.value}`, keyVersion: 4, sourceKeyVersion: r.keyVersion })),
    maskFormatted: versioned((r) => ({ masked: "•••• 4242", keyVersion: r.keyVersion })),
    encryptFormattedBatch: (call, callback) => {
      requests.push(recorded(call.request));
      const items: { reference: string; value: string }[] = call.request.items;
      callback(null, {
        results: items.map((i) => result(i.reference, i.value === "bad" ? "bad" : reverse(i.value), 3)),
      });
    },
    decryptFormattedBatch: (call, callback) => {
      requests.push(recorded(call.request));
      const items: { reference: string; value: string; keyVersion: number }[] = call.request.items;
      callback(null, {
        results: items.map((i) => result(i.reference, i.value === "bad" ? "bad" : reverse(i.value), i.keyVersion)),
      });
    },
    reEncryptFormattedBatch: (call, callback) => {
      requests.push(recorded(call.request));
      const items: { reference: string; value: string; keyVersion: number }[] = call.request.items;
      callback(null, { results: items.map((i) => result(i.reference, i.value, 4, i.keyVersion)) });
    },
  };
  const streams: Record<string, Bidi> = {
    encryptFormattedStream: streamed((r) => result(r.reference, r.value === "bad" ? "bad" : reverse(r.value), 3)),
    decryptFormattedStream: streamed((r) =>
      result(r.reference, r.value === "bad" ? "bad" : reverse(r.value), r.keyVersion),
    ),
    reEncryptFormattedStream: streamed((r) =>
      result(r.reference, r.value === "bad" ? "bad" : `re-${r.value}`, 4, r.keyVersion),
    ),
  };
  server.addService(FormatPreservingServiceService, { ...handlers, ...streams });
  const key: Unary = (call, callback) => {
    requests.push(recorded(call.request));
    const version = KeyVersion.fromPartial({ version: 1, mode: call.request.mode, fpeFormat: call.request.fpeFormat });
    callback(null, { key: Key.fromPartial({ keyName: call.request.keyName, currentVersion: 1, versions: [version] }) });
  };
  server.addService(KeyAdminServiceService, { createKey: key, importKey: key });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { server, address: `127.0.0.1:${port}` };
}

describe("format-preserving values against a fake server", () => {
  // biome-ignore lint/suspicious/noExplicitAny: requests of every type
  let requests: any[];
  let server: Server;
  let c: cipherd.CipherdClient;
  before(async () => {
    requests = [];
    const served = await serveFake(requests);
    server = served.server;
    c = new cipherd.CipherdClient(served.address, { insecure: true, timeoutMs: 10_000 });
  });
  after(() => {
    c?.close();
    server?.forceShutdown();
  });

  test("the unary calls send key, value, context and version", async () => {
    requests.length = 0;
    const context = bytes("users.card");
    const ct = await c.encryptFormatted("cards", "1234567890", { context });
    assert.deepEqual(ct, { value: "0987654321", keyVersion: 3 });
    assert.equal(await c.decryptFormatted("cards", ct, { context }), "1234567890");
    assert.deepEqual(await c.reEncryptFormatted("cards", ct, { context }), {
      value: "re-0987654321",
      keyVersion: 4,
      sourceKeyVersion: 3,
    });
    assert.equal(await c.maskFormatted("cards", ct, { context }), "•••• 4242");
    assert.deepEqual(requests[0], { keyName: "cards", value: "1234567890", context: "users.card" });
    for (const r of requests.slice(1)) {
      assert.deepEqual(r, { keyName: "cards", value: "0987654321", context: "users.card", keyVersion: 3 });
    }
  });

  test("a ciphertext without its version is refused: by the types, at run time, and by the server", async () => {
    requests.length = 0;
    // @ts-expect-error: a bare string has lost its version
    await assert.rejects(c.decryptFormatted("cards", "0987654321"), TypeError);
    // @ts-expect-error: so has a batch of them
    await assert.rejects(c.decryptFormattedBatch("cards", ["0987654321"]), TypeError);
    assert.equal(requests.length, 0);
    await assert.rejects(
      c.maskFormatted("cards", { value: "0987654321", keyVersion: 0 }),
      (e: unknown) => e instanceof cipherd.InvalidArgumentError && e.message.includes("key_version"),
    );
  });

  test("batches answer one result per item, in order, each item with its own version", async () => {
    requests.length = 0;
    const encrypted = await c.encryptFormattedBatch(
      "ids",
      [
        { value: "123456", reference: "a" },
        { value: "bad", reference: "b" },
        { value: "654321", reference: "c", context: bytes("own") },
        "111222",
      ],
      { context: bytes("batch") },
    );
    assert.deepEqual(
      encrypted.map((r) => r.reference),
      ["a", "b", "c", ""],
    );
    assert.deepEqual(encrypted[0]?.unwrap(), { value: "654321", keyVersion: 3 });
    assert.ok(encrypted[1]?.error instanceof cipherd.InvalidArgumentError);
    assert.equal(requests[0].context, "batch");
    assert.equal(requests[0].items[2].context, "own");
    const first = encrypted[0]?.unwrap() as cipherd.FormattedValue;
    const items = [
      { ciphertext: first, reference: "a" },
      { value: "cba", keyVersion: 1 },
      { ciphertext: { value: "bad", keyVersion: 2 }, reference: "b" },
    ];
    const decrypted = await c.decryptFormattedBatch("ids", items);
    assert.deepEqual(
      decrypted.slice(0, 2).map((r) => [r.value, r.keyVersion]),
      [
        ["123456", 3],
        ["abc", 1],
      ],
    );
    assert.ok(decrypted[2]?.error instanceof cipherd.InvalidArgumentError);
    assert.equal(requests[1].keyVersion, 0);
    assert.deepEqual(
      requests[1].items.map((i: { keyVersion: number }) => i.keyVersion),
      [3, 1, 2],
    );
    const moved = await c.reEncryptFormattedBatch("ids", items);
    assert.deepEqual(moved[1]?.unwrap(), { value: "cba", keyVersion: 4, sourceKeyVersion: 1 });
  });

  test("createKey and importKey send the format; formats that cannot be are refused before sending", async () => {
    requests.length = 0;
    const key = await c.createKey("cards", {
      mode: "ff1",
      fpeFormat: { template: "card_number", acceptSmallDomain: true, maskVisibleSuffix: 4 },
    });
    assert.equal(requests[0].mode, Mode.MODE_FF1);
    assert.equal(requests[0].fpeFormat.template, FpeTemplate.FPE_TEMPLATE_CARD_NUMBER);
    assert.equal(key.versions[0]?.fpeFormat?.acceptSmallDomain, true);
    await c.importKey("tokens", new Uint8Array(32), {
      mode: "ff1",
      fpeFormat: { alphabet: "0123456789abcdef", versionPrefixLength: 1 },
    });
    assert.equal(requests[1].fpeFormat.alphabet, "0123456789abcdef");
    assert.equal(requests[1].fpeFormat.versionPrefixLength, 1);
    await assert.rejects(c.createKey("k", { mode: "ff1" }), RangeError);
    await assert.rejects(c.createKey("k", { fpeFormat: { template: "digits" } }), RangeError);
    await assert.rejects(
      c.createKey("k", { mode: "ff1", fpeFormat: { template: "digits", alphabet: "01" } }),
      RangeError,
    );
    await assert.rejects(c.createKey("k", { mode: "ff1", fpeFormat: {} }), RangeError);
    await assert.rejects(
      c.importKey("k", new Uint8Array(64), { mode: "siv", fpeFormat: { template: "digits" } }),
      RangeError,
    );
    assert.equal(requests.length, 2);
  });
});

describe("format-preserving streams against a fake server", () => {
  // biome-ignore lint/suspicious/noExplicitAny: requests of every type
  const requests: any[] = [];
  const control: FakeControl = { failStreamAfter: 0 };
  let server: Server;
  let c: cipherd.CipherdClient;
  before(async () => {
    const served = await serveFake(requests, control);
    server = served.server;
    c = new cipherd.CipherdClient(served.address, { insecure: true, timeoutMs: 10_000 });
  });
  after(() => {
    c?.close();
    server?.forceShutdown();
  });

  /** n stored values "v<i>" at version 1 with references "0" to "n-1", "bad" at `bad`. */
  function* column(n: number, bad = -1): Generator<cipherd.FormattedItem> {
    for (let i = 0; i < n; i++) {
      yield { ciphertext: { value: i === bad ? "bad" : `v${i}`, keyVersion: 1 }, reference: String(i) };
    }
  }

  test("reEncryptFormattedStream answers each item in order, a failed one alone", async () => {
    requests.length = 0;
    const results = [];
    for await (const r of c.reEncryptFormattedStream("cards", column(1500, 700), { context: bytes("payments.pan") })) {
      results.push(r);
    }
    assert.deepEqual(
      results.map((r) => r.reference),
      Array.from({ length: 1500 }, (_, i) => String(i)),
    );
    assert.ok(results[700]?.error instanceof cipherd.InvalidArgumentError);
    assert.deepEqual(results[1]?.unwrap(), { value: "re-v1", keyVersion: 4, sourceKeyVersion: 1 });
    assert.deepEqual(requests[0], {
      reference: "0",
      keyName: "cards",
      value: "v0",
      context: "payments.pan",
      keyVersion: 1,
    });
  });

  test("encrypt and decrypt streams keep order and an item's own context", async () => {
    requests.length = 0;
    const items = [
      { value: "1234", reference: "a" },
      { value: "bad", reference: "b" },
      { value: "5678", reference: "c", context: bytes("own") },
    ];
    const encrypted = [];
    for await (const r of c.encryptFormattedStream("ids", items, { context: bytes("users.id") })) encrypted.push(r);
    assert.deepEqual(
      encrypted.map((r) => [r.reference, r.ok]),
      [
        ["a", true],
        ["b", false],
        ["c", true],
      ],
    );
    assert.deepEqual(
      requests.map((r) => r.context),
      ["users.id", "users.id", "own"],
    );
    const back = [
      { ciphertext: encrypted[0]?.unwrap() as cipherd.FormattedValue, reference: "a" },
      { ciphertext: encrypted[2]?.unwrap() as cipherd.FormattedValue, reference: "c" },
    ];
    const plain = [];
    for await (const r of c.decryptFormattedStream("ids", back)) plain.push(r.unwrap());
    assert.deepEqual(plain, ["1234", "5678"]);
    assert.deepEqual(
      requests.slice(3).map((r) => r.keyVersion),
      [3, 3],
    );
  });

  test("a broken stream resumes after its lastReference, every item answered once, in order", async () => {
    control.failStreamAfter = 900;
    const answered: string[] = [];
    let broken: cipherd.CipherdError | undefined;
    try {
      for await (const r of c.reEncryptFormattedStream("cards", column(2000))) answered.push(r.reference);
    } catch (e) {
      broken = e as cipherd.CipherdError;
    }
    assert.ok(broken instanceof cipherd.UnavailableError, String(broken));
    assert.equal(broken.lastReference, "899");
    assert.equal(answered.length, 900);
    for await (const r of c.reEncryptFormattedStream("cards", column(2000), { resumeAfter: broken.lastReference })) {
      answered.push(r.reference);
    }
    assert.deepEqual(
      answered,
      Array.from({ length: 2000 }, (_, i) => String(i)),
    );
  });
});

test("every API template has a name", () => {
  const names = Object.keys(FpeTemplate)
    .filter((n) => n.startsWith("FPE_TEMPLATE_") && n !== "FPE_TEMPLATE_UNSPECIFIED")
    .map((n) => n.slice("FPE_TEMPLATE_".length).toLowerCase());
  assert.deepEqual(names, [...cipherd.FPE_TEMPLATES]);
});
