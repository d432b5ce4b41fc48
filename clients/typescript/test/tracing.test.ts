/**
 * The caller's trace crosses the hop: with `tracerProvider` the client's span is a child of the caller's
 * active span, and the real jar, tracing at sampling ratio 0 (so only a caller's sampled traceparent makes
 * it trace a call), writes the caller's trace id into that call's audit record; a client without it sends
 * none. (The server span's parent as exported is checked against a real Collector by make test-otel.)
 */
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, test } from "node:test";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import * as cipherd from "../src/index.js";
import { jar, startServer, tempDir } from "./server.js";

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

async function encryptRecords(path: string, count: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const records = existsSync(path)
      ? readFileSync(path, "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((r) => r.type === "call" && String(r.method).endsWith("/Encrypt"))
      : [];
    if (records.length >= count || Date.now() > deadline) return records;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("traces through the hop", { skip: jar() === undefined && "no server jar: run make build" }, () => {
  test("the caller's trace id reaches the server only from a client with a tracerProvider", async () => {
    const contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const dir = tempDir("traced");
    const audit = join(dir, "audit.log");
    const server = await startServer(dir, [
      "--demo-key",
      "demo",
      "--audit-log",
      audit,
      "--otel-endpoint",
      `http://127.0.0.1:${await closedPort()}`,
      "--otel-sampling-ratio",
      "0",
    ]);
    const traced = new cipherd.CipherdClient(server.address, { tracerProvider: provider });
    const untraced = new cipherd.CipherdClient(server.address);
    try {
      const caller = provider.getTracer("checkout").startSpan("checkout");
      await context.with(trace.setSpan(context.active(), caller), async () => {
        await traced.encrypt("demo", new TextEncoder().encode("traced"));
        await untraced.encrypt("demo", new TextEncoder().encode("untraced"));
      });
      caller.end();

      const traceId = caller.spanContext().traceId;
      const clientSpans = exporter.getFinishedSpans().filter((s) => s.name === "cipherd.v1.CryptoService/Encrypt");
      assert.equal(clientSpans.length, 1, "one client span, of the traced client's call");
      const [client] = clientSpans;
      assert.equal(client!.spanContext().traceId, traceId);
      assert.equal(client!.parentSpanContext?.spanId, caller.spanContext().spanId);
      assert.equal(client!.attributes["rpc.grpc.status_code"], 0);

      const records = await encryptRecords(audit, 2);
      assert.equal(records.length, 2);
      assert.equal(records[0]!.trace_id, traceId);
      assert.equal(records[1]!.trace_id, undefined);
    } finally {
      traced.close();
      untraced.close();
      await server.stop();
      contextManager.disable();
      context.disable();
    }
  });
});
