/** Every case of proto/testdata/datakey_files.json through sealFile and openFile, with the vectors' data key injected. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { FileHeader } from "../src/file/format.js";
import { type FileInfo, openFile, sealFile } from "../src/file/stream-cipher.js";
import { InvalidArgumentError, InvalidFileError } from "../src/index.js";

interface Valid {
  name: string;
  chunk_size: number;
  chunks: number;
  plaintext_hex: string;
  file_hex: string;
}
interface Invalid {
  name: string;
  file_hex: string;
  reason: string;
}
const vectors = JSON.parse(
  readFileSync(resolve(fileURLToPath(import.meta.url), "../../../../../proto/testdata/datakey_files.json"), "utf8"),
) as {
  data_key_hex: string;
  wrapped_key: string;
  nonce_prefix_hex: string;
  reasons: Record<string, string>;
  valid: Valid[];
  invalid: Invalid[];
  rewrapped: { wrapped_key: string; file_hex: string };
};
const dataKey = () => Buffer.from(vectors.data_key_hex, "hex"); // a fresh copy: openFile overwrites what unwrap returns
const unwrapTo = (key: () => Buffer) => async (_wrapped: string) => key();

/** `bytes` in pieces of `size`, so chunks straddle the pieces a stream would deliver. */
function* pieces(bytes: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return Buffer.concat(out);
}

describe("valid files decrypt with the data key", () => {
  for (const c of vectors.valid) {
    for (const size of [c.file_hex.length / 2, 7]) {
      test(`${c.name} (read ${size} bytes at a time)`, async () => {
        const info: FileInfo = { wrappedKey: "", chunkSize: 0, plaintextBytes: 0 };
        const seen: string[] = [];
        const plaintext = await collect(
          openFile(
            pieces(Buffer.from(c.file_hex, "hex"), size),
            async (wrapped) => {
              seen.push(wrapped);
              return dataKey();
            },
            info,
          ),
        );
        assert.equal(plaintext.toString("hex"), c.plaintext_hex);
        assert.deepEqual(seen, [vectors.wrapped_key]);
        assert.deepEqual(info, {
          wrappedKey: vectors.wrapped_key,
          chunkSize: c.chunk_size,
          plaintextBytes: c.plaintext_hex.length / 2,
        });
      });
    }
  }
});

describe("encrypting with the vectors' key, wrapped key and nonce prefix gives the file exactly", () => {
  for (const c of vectors.valid) {
    test(c.name, async () => {
      const header = new FileHeader(c.chunk_size, Buffer.from(vectors.nonce_prefix_hex, "hex"), vectors.wrapped_key);
      const parts: Buffer[] = [];
      for await (const part of sealFile(pieces(Buffer.from(c.plaintext_hex, "hex"), 5), dataKey(), header))
        parts.push(part);
      assert.equal(parts.length, 1 + c.chunks, "the header, then one part per chunk");
      assert.equal(Buffer.concat(parts).toString("hex"), c.file_hex);
    });
  }
});

describe("invalid files are rejected for their reason", () => {
  for (const c of vectors.invalid) {
    test(`${c.name}: ${c.reason}`, async () => {
      await assert.rejects(
        collect(openFile(pieces(Buffer.from(c.file_hex, "hex"), 13), unwrapTo(dataKey))),
        (e: unknown) => {
          assert.ok(e instanceof InvalidFileError && e instanceof InvalidArgumentError);
          assert.equal(e.defect, c.reason, e.message);
          assert.ok(!e.message.includes(vectors.data_key_hex.slice(0, 16)));
          return true;
        },
      );
    });
  }
  test("every reason has a case", () => {
    assert.deepEqual(new Set(vectors.invalid.map((c) => c.reason)), new Set(Object.keys(vectors.reasons)));
  });
});

test("the rewrapped file decrypts with the same data key, and is the original with only its header's wrapped key changed", async () => {
  const rewrapped = Buffer.from(vectors.rewrapped.file_hex, "hex");
  const seen: string[] = [];
  const plaintext = await collect(
    openFile([rewrapped], async (wrapped) => {
      seen.push(wrapped);
      return dataKey();
    }),
  );
  assert.deepEqual(seen, [vectors.rewrapped.wrapped_key]);
  const original = vectors.valid[3]!;
  assert.equal(plaintext.toString("hex"), original.plaintext_hex);
  const header = new FileHeader(original.chunk_size, Buffer.from(vectors.nonce_prefix_hex, "hex"), vectors.wrapped_key);
  const oldHeader = header.encode().length;
  const newHeader = header.withWrappedKey(vectors.rewrapped.wrapped_key).encode();
  assert.equal(
    Buffer.concat([newHeader, Buffer.from(original.file_hex, "hex").subarray(oldHeader)]).toString("hex"),
    vectors.rewrapped.file_hex,
  );
});

test("another data key (a substituted wrapped key) fails at the first chunk", async () => {
  const c = vectors.valid[2]!;
  const other = () => Buffer.alloc(32, 7);
  await assert.rejects(
    collect(openFile([Buffer.from(c.file_hex, "hex")], unwrapTo(other))),
    (e: unknown) => e instanceof InvalidFileError && e.defect === "chunk_invalid" && /chunk 0/.test(e.message),
  );
});

test("a data key that is not 256 bits is refused, and what unwrap returned is overwritten", async () => {
  const short = Buffer.alloc(16, 9);
  await assert.rejects(
    collect(openFile([Buffer.from(vectors.valid[0]!.file_hex, "hex")], async () => short)),
    InvalidFileError,
  );
  assert.ok(short.every((b) => b === 0));
  const key = dataKey();
  await collect(openFile([Buffer.from(vectors.valid[0]!.file_hex, "hex")], async () => key));
  assert.ok(key.every((b) => b === 0));
});

test("no plaintext of a chunk is released before it verifies", async () => {
  const c = vectors.valid[3]!;
  const file = Buffer.from(c.file_hex, "hex");
  file[file.length - 1]! ^= 1; // the last chunk's tag
  const released: Buffer[] = [];
  await assert.rejects(
    async () => {
      for await (const chunk of openFile([file], unwrapTo(dataKey))) released.push(chunk);
    },
    (e: unknown) => e instanceof InvalidFileError && e.defect === "chunk_invalid",
  );
  assert.equal(
    Buffer.concat(released).toString("hex"),
    c.plaintext_hex.slice(0, 2 * 2 * c.chunk_size),
    "only the two chunks before it",
  );
});

test("header checks: chunk size bounds, nonce prefix and wrapped key", () => {
  const prefix = Buffer.alloc(7);
  for (const size of [15, 16_777_217, 1.5])
    assert.throws(() => new FileHeader(size, prefix, "<k/v1:gcm>AAAA"), RangeError);
  for (const size of [16, 16_777_216]) assert.equal(new FileHeader(size, prefix, "<k/v1:gcm>AAAA").chunkSize, size);
  assert.throws(() => new FileHeader(64, Buffer.alloc(8), "<k/v1:gcm>AAAA"), RangeError);
  for (const wrapped of ["", "a b", "é", "x".repeat(4097)])
    assert.throws(() => new FileHeader(64, prefix, wrapped), RangeError);
  assert.equal(new FileHeader(64, prefix, "x".repeat(4096)).encode().length, 27 + 2 + 4096);
});

test("a file cut inside a chunk: truncated while less than a tag remains, else indistinguishable from a changed chunk", async () => {
  const file = Buffer.from(vectors.valid[2]!.file_hex, "hex"); // two full chunks of 80 bytes
  const end = file.length;
  for (const [length, reason] of [
    [end - 80 + 15, "truncated"],
    [end - 80 + 16, "chunk_invalid"],
    [end - 1, "chunk_invalid"],
  ] as const) {
    await assert.rejects(
      collect(openFile([file.subarray(0, length)], unwrapTo(dataKey))),
      (e: unknown) => e instanceof InvalidFileError && e.defect === reason,
      `cut to ${length} bytes`,
    );
  }
});
