/**
 * Starts the real cipherd jar for the tests: a fresh data dir, a generated key store password, a free
 * port (the server picks it and logs it), ready once the gRPC health service says SERVING.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type ChannelCredentials, makeClientConstructor, credentials, type ServiceError } from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";

const REPO = resolve(fileURLToPath(import.meta.url), "../../../../..");
const LISTENING = /cipherd listening on \S+:(\d+) /;
const START_TIMEOUT_MS = 120_000;

export interface RunningServer {
  address: string;
  workdir: string;
  stop(): Promise<void>;
}

/** The jar `make build` makes; missing, the caller skips locally and fails in CI. */
export function jar(): string | undefined {
  const path = process.env.CIPHERD_JAR ?? join(REPO, "server/target/cipherd.jar");
  if (existsSync(path)) return path;
  if (process.env.CI === "true") throw new Error(`no server jar at ${path}: run make build`);
  return undefined;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `cipherd-ts-${prefix}-`));
}

/**
 * Starts cipherd with `args` after the common ones; `creds` are what the health probe connects with. It takes
 * key material in the clear (--allow-plaintext-key-import) unless `plaintextImport` is false: the tests of
 * importKey predate wrapped import.
 */
export async function startServer(
  workdir: string,
  args: string[],
  creds: ChannelCredentials = credentials.createInsecure(),
  plaintextImport = true,
): Promise<RunningServer> {
  const jarPath = jar();
  if (jarPath === undefined) throw new Error("no server jar");
  const password = join(workdir, "keystore-password");
  // Kept when present, so a server restarted on the same workdir opens the same key store.
  if (!existsSync(password)) writeFileSync(password, randomBytes(24).toString("base64url"), { mode: 0o600 });
  const java = process.env.CIPHERD_JAVA ?? "java";
  const javaOpts = (process.env.CIPHERD_JAVA_OPTS ?? "").split(/\s+/).filter(Boolean);
  const child = spawn(
    java,
    [
      ...javaOpts,
      "-jar",
      jarPath,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--http-port",
      "0",
      "--data-dir",
      join(workdir, "data"),
      "--keystore-password-file",
      password,
      "--shutdown-grace",
      "PT1S",
      ...(plaintextImport ? ["--allow-plaintext-key-import"] : []),
      ...args,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const log: string[] = [];
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`cipherd did not start:\n${log.slice(-30).join("\n")}`)),
      START_TIMEOUT_MS,
    );
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on("line", (line) => {
        log.push(line);
        const m = LISTENING.exec(line);
        if (m) {
          clearTimeout(timer);
          resolvePort(Number(m[1]));
        }
      });
    }
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`cipherd exited with ${code}:\n${log.slice(-30).join("\n")}`));
    });
  });
  const address = `127.0.0.1:${port}`;
  const server = { address, workdir, stop: () => stop(child) };
  try {
    await waitServing(address, creds, Date.now() + START_TIMEOUT_MS);
  } catch (e) {
    await server.stop();
    throw e;
  }
  return server;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", () => {
      clearTimeout(kill);
      done();
    });
    child.kill("SIGTERM");
  });
}

const HealthClient = makeClientConstructor(healthService, "grpc.health.v1.Health");

async function waitServing(address: string, creds: ChannelCredentials, deadline: number): Promise<void> {
  const health = new HealthClient(address, creds) as unknown as {
    check(req: object, opts: object, cb: (e: ServiceError | null, r: { status: string }) => void): void;
    close(): void;
  };
  try {
    for (;;) {
      const status = await new Promise<string>((ok) =>
        health.check({ service: "" }, { deadline: Date.now() + 5000 }, (e, r) => ok(e ? "error" : r.status)),
      );
      if (status === "SERVING") return;
      if (Date.now() > deadline) throw new Error(`cipherd never reported SERVING at ${address}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    health.close();
  }
}
