/** TLS with bearer tokens, and mutual TLS, against servers with an access policy. */
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { credentials } from "@grpc/grpc-js";
import * as cipherd from "../src/index.js";
import { Authority, type Pem, read } from "./certs.js";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const TOKEN = "app-token-for-tests";
const bytes = (s: string) => new TextEncoder().encode(s);
const freshName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 13)}`;

describe("TLS, tokens and mutual TLS", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  let ca: Authority;
  let otherCa: Authority;
  let billing: Pem;
  let stranger: Pem;
  let tokenServer: RunningServer;
  let mtlsServer: RunningServer;

  before(async () => {
    const dir = tempDir("pki");
    ca = new Authority(dir);
    mkdirSync(join(dir, "other"));
    otherCa = new Authority(join(dir, "other"), "other-ca");
    const serverPem = ca.issue("server", "localhost", true);
    billing = ca.issue("billing", "billing.test");
    stranger = ca.issue("stranger", "stranger.test");
    const tls = ["--tls-cert", serverPem.cert, "--tls-key", serverPem.key];

    const tokenDir = tempDir("token");
    writeFileSync(
      join(tokenDir, "policy.yaml"),
      `callers:
  app:
    token_sha256: ${createHash("sha256").update(TOKEN).digest("hex")}
    rules:
      - keys: ["app-*"]
        operations: [encrypt, decrypt, admin, import, inspect]
`,
    );
    const mtlsDir = tempDir("mtls");
    writeFileSync(
      join(mtlsDir, "policy.yaml"),
      `callers:
  billing.test:
    rules:
      - keys: ["billing-*"]
        operations: [encrypt, decrypt, admin, import]
`,
    );
    [tokenServer, mtlsServer] = await Promise.all([
      startServer(
        tokenDir,
        [...tls, "--access-policy", join(tokenDir, "policy.yaml")],
        credentials.createSsl(read(ca.pem.cert)),
      ),
      startServer(
        mtlsDir,
        [...tls, "--tls-client-ca", ca.pem.cert, "--access-policy", join(mtlsDir, "policy.yaml")],
        credentials.createSsl(read(ca.pem.cert), read(billing.key), read(billing.cert)),
      ),
    ]);
  });
  after(async () => {
    await Promise.all([tokenServer?.stop(), mtlsServer?.stop()]);
  });

  async function using<T>(
    address: string,
    options: cipherd.ClientOptions,
    body: (c: cipherd.CipherdClient) => Promise<T>,
  ): Promise<T> {
    const c = new cipherd.CipherdClient(address, options);
    try {
      return await body(c);
    } finally {
      c.close();
    }
  }

  test("TLS with a bearer token works within its grant and is PermissionDenied outside it", () =>
    using(tokenServer.address, { tls: { ca: read(ca.pem.cert) }, token: TOKEN }, async (c) => {
      const name = freshName("app");
      await c.createKey(name);
      assert.equal(new TextDecoder().decode(await c.decrypt(await c.encrypt(name, bytes("over tls")))), "over tls");
      await assert.rejects(
        c.encrypt("demo", bytes("not granted")),
        (e: unknown) => e instanceof cipherd.PermissionDeniedError && e.details.includes("app"),
      );
    }));

  for (const token of [undefined, "wrong-token"]) {
    test(`${token ?? "no"} token is Unauthenticated`, () =>
      using(tokenServer.address, { tls: { ca: read(ca.pem.cert) }, token }, async (c) => {
        await assert.rejects(c.encrypt("app-x", bytes("x")), cipherd.UnauthenticatedError);
      }));
  }

  test("an untrusted server certificate is Unavailable", () =>
    using(tokenServer.address, { tls: { ca: read(otherCa.pem.cert) }, token: TOKEN, timeoutMs: 5000 }, async (c) => {
      await assert.rejects(c.encrypt("app-x", bytes("x")), cipherd.UnavailableError);
    }));

  test("under mutual TLS the caller is its certificate", () =>
    using(
      mtlsServer.address,
      { tls: { ca: read(ca.pem.cert), cert: read(billing.cert), key: read(billing.key) } },
      async (c) => {
        const name = freshName("billing");
        await c.createKey(name);
        assert.equal(new TextDecoder().decode(await c.decrypt(await c.encrypt(name, bytes("mtls")))), "mtls");
        await assert.rejects(c.encrypt("app-other", bytes("x")), cipherd.PermissionDeniedError);
      },
    ));

  test("a certificate no rule names is PermissionDenied", () =>
    using(
      mtlsServer.address,
      { tls: { ca: read(ca.pem.cert), cert: read(stranger.cert), key: read(stranger.key) } },
      async (c) => {
        await assert.rejects(c.encrypt("billing-x", bytes("x")), cipherd.PermissionDeniedError);
      },
    ));

  test("no client certificate is refused", () =>
    using(mtlsServer.address, { tls: { ca: read(ca.pem.cert) }, timeoutMs: 5000 }, async (c) => {
      await assert.rejects(c.encrypt("billing-x", bytes("x")), cipherd.UnavailableError);
    }));
});

test("half a client certificate is a usage error", () => {
  assert.throws(() => new cipherd.CipherdClient("127.0.0.1:1", { tls: { cert: bytes("x") } }), TypeError);
});
