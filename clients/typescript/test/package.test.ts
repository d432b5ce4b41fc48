/**
 * The npm tarball a team depends on: `npm pack` of the files git tracks (its `prepack` builds dist/ from
 * src/), its contents, then the tarball installed by npm into a project outside the checkout, where a
 * TypeScript program compiled by tsc --strict against the shipped declarations, and a CommonJS script
 * through import(), make real calls to the jar.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { jar, type RunningServer, startServer, tempDir } from "./server.js";

const PACKAGE = resolve(fileURLToPath(import.meta.url), "../../..");
const REPO = resolve(PACKAGE, "../..");
const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
};
const NPM_CACHE = join(process.env.CIPHERD_CACHE ?? join(homedir(), ".cache/cipherd"), "npm");
const NPM_FLAGS = ["--cache", NPM_CACHE, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const TIMEOUT_MS = 300_000;

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      timeout: TIMEOUT_MS,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

/** The files git tracks (or would track) in `dir`, relative to it: what a checkout of a tag has. */
function tracked(dir: string): string[] {
  return run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "."], dir)
    .split("\0")
    .filter(Boolean);
}

const CONSUMER_TS = `import { CipherdClient, DecryptionFailedError, parseCiphertext } from "@cipherd/client";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const c = new CipherdClient(process.argv[2] ?? "127.0.0.1:50051");
try {
  const ciphertext = await c.encrypt("demo", bytes("from the tarball"), { context: bytes("row-1") });
  const plaintext = new TextDecoder().decode(await c.decrypt(ciphertext, { context: bytes("row-1") }));
  let reason = "";
  try {
    await c.decrypt(ciphertext, { context: bytes("row-2") });
    throw new Error("a wrong context decrypted");
  } catch (e) {
    if (!(e instanceof DecryptionFailedError)) throw e;
    reason = e.reason;
  }
  console.log(\`esm: \${parseCiphertext(ciphertext).keyName} "\${plaintext}" \${reason}\`);
} finally {
  c.close();
}
`;

const CONSUMER_CJS = `"use strict";
// CommonJS: the package is ESM only, so a CommonJS module loads it with import().
import("@cipherd/client").then(async ({ CipherdClient, DecryptionFailedError }) => {
  const c = new CipherdClient(process.argv[2]);
  try {
    const ciphertext = await c.encrypt("demo", Buffer.from("from require land"));
    const plaintext = Buffer.from(await c.decrypt(ciphertext)).toString();
    const reason = await c.decrypt(ciphertext, { context: Buffer.from("x") }).then(
      () => "decrypted", (e) => (e instanceof DecryptionFailedError ? e.reason : String(e)));
    console.log(\`cjs: "\${plaintext}" \${reason}\`);
  } finally {
    c.close();
  }
}).catch((e) => { console.error(e); process.exitCode = 1; });
`;

describe("the npm tarball", () => {
  const tmp = tempDir("package");
  let tarball: string;
  let packed: string[];

  before(() => {
    // A copy of the tracked files (LICENSE, a link to the repository's, copied as its text), so the pack's
    // prepack writes nothing into the checkout; the dev dependencies (tsc) linked from this one.
    const source = join(tmp, "source");
    for (const name of tracked(PACKAGE)) {
      mkdirSync(dirname(join(source, name)), { recursive: true });
      cpSync(realpathSync(join(PACKAGE, name)), join(source, name));
    }
    symlinkSync(join(PACKAGE, "node_modules"), join(source, "node_modules"));
    mkdirSync(join(tmp, "out"));
    const [result] = JSON.parse(
      run("npm", ["pack", "--json", "--pack-destination", join(tmp, "out"), ...NPM_FLAGS], source),
    ) as { filename: string; files: { path: string }[] }[];
    tarball = join(tmp, "out", result!.filename);
    packed = result!.files.map((f) => f.path);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test("is named and versioned from package.json", () => {
    assert.equal(tarball, join(tmp, "out", `cipherd-client-${manifest.version}.tgz`));
  });

  test("holds the compiled code and declarations of every source, the licence and the README, and no tests", () => {
    const sources = tracked(join(PACKAGE, "src")).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
    assert.ok(sources.includes("index.ts") && sources.some((f) => f.startsWith("gen/cipherd/v1/")), String(sources));
    const missing = sources
      .flatMap((f) => [`dist/${f.replace(/\.ts$/, ".js")}`, `dist/${f.replace(/\.ts$/, ".d.ts")}`])
      .filter((f) => !packed.includes(f));
    assert.deepEqual(missing, []);
    for (const f of ["package.json", "README.md", "LICENSE"])
      assert.ok(packed.includes(f), `${f} is not in the tarball`);
    assert.deepEqual(
      packed.filter((f) => /^(test|build|scripts|node_modules)\/|^tsconfig/.test(f)),
      [],
    );
  });

  describe("installed into a project outside the checkout", {
    skip: jar() === undefined && "no server jar: run make build",
  }, () => {
    const project = join(tmp, "consumer");
    let server: RunningServer;

    before(async () => {
      mkdirSync(project);
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
      // The tarball's dependencies resolved by npm from its package.json (from the cache when it has them).
      run(
        "npm",
        [
          "install",
          ...NPM_FLAGS,
          tarball,
          `typescript@${manifest.devDependencies.typescript}`,
          `@types/node@${manifest.devDependencies["@types/node"]}`,
        ],
        project,
      );
      server = await startServer(tempDir("package-server"), ["--demo-key", "demo"]);
    });
    after(async () => {
      await server?.stop();
    });

    test("is the tarball's copy, not a link to the checkout", () => {
      const installed = join(project, "node_modules", manifest.name);
      assert.ok(!lstatSync(installed).isSymbolicLink());
      assert.ok(!realpathSync(installed).startsWith(`${REPO}/`), realpathSync(installed));
      const meta = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
        version: string;
        license: string;
      };
      assert.deepEqual([meta.version, meta.license], [manifest.version, "Apache-2.0"]);
    });

    test("a TypeScript program compiles with tsc --strict against it and calls the server", () => {
      writeFileSync(join(project, "consumer.ts"), CONSUMER_TS);
      // No skipLibCheck: the shipped declarations themselves must type-check.
      writeFileSync(
        join(project, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            types: ["node"],
            outDir: "out",
          },
          files: ["consumer.ts"],
        }),
      );
      run(join(project, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], project);
      assert.equal(
        run(process.execPath, ["out/consumer.js", server.address], project).trim(),
        `esm: demo "from the tarball" DECRYPTION_FAILED`,
      );
    });

    test("a CommonJS script loads it with import() and calls the server", () => {
      writeFileSync(join(project, "consumer.cjs"), CONSUMER_CJS);
      assert.equal(
        run(process.execPath, ["consumer.cjs", server.address], project).trim(),
        `cjs: "from require land" DECRYPTION_FAILED`,
      );
    });
  });
});
