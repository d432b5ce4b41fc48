/**
 * The item streams (encryptStream, decryptStream, reEncryptStream) as async iterables in and out
 * (proto/README.md, "Streams"): one result per item in input order, the input read only as answers
 * come back, and a broken stream's error carrying the reference to resume after.
 */
import { once } from "node:events";
import type { ClientDuplexStream } from "@grpc/grpc-js";
import { CipherdError, fromServiceError } from "./errors.js";
import type { CallOptions, ItemResult } from "./types.js";

/** At most this many items are sent but not yet answered: what bounds the input read ahead and the memory held. */
export const STREAM_WINDOW = 512;

/** The items of a stream: any sync or async iterable, read lazily. */
export type Items<I> = AsyncIterable<I> | Iterable<I>;

export interface StreamOptions extends CallOptions {
  /**
   * Skips the items up to and including the first whose reference this is: give a broken stream's
   * `error.lastReference` and the same items to go on where it stopped. References must be unique.
   */
  resumeAfter?: string;
}

/** What differs between the streams: how one is opened, an item becomes a request and a response a result. */
export interface StreamKind<I, Req extends { reference: string }, Res, T> {
  open(): ClientDuplexStream<Req, Res>;
  request(item: I): Req;
  result(response: Res): ItemResult<T>;
}

/**
 * Runs one stream call, opened only once iteration starts. Leaving the loop early or aborting cancels
 * the call. An item source that throws (or an item that does not convert) ends the input: the items
 * already sent are still answered, then its error is thrown.
 */
export async function* runStream<I, Req extends { reference: string }, Res, T>(
  kind: StreamKind<I, Req, Res, T>,
  items: Items<I>,
  options: StreamOptions,
  listenForAbort: (cancel: () => void) => () => void,
): AsyncGenerator<ItemResult<T>> {
  if (options.resumeAfter === "")
    throw new TypeError("resumeAfter needs a non-empty reference: give the items references to resume");
  const call = kind.open();
  const stopListening = listenForAbort(() => call.cancel());
  const inFlight = new InFlight();
  const stopped = new AbortController();
  let sourceError: unknown;
  void (async () => {
    try {
      await sendAll(call, kind, items, options.resumeAfter, inFlight, stopped.signal);
    } catch (e) {
      sourceError = e;
    }
    if (!stopped.signal.aborted) call.end();
  })();

  let lastReference = options.resumeAfter;
  try {
    for await (const response of call as AsyncIterable<Res>) {
      const result = kind.result(response);
      const due = inFlight.answered();
      if (result.reference !== due)
        throw new CipherdError(`the stream answered "${result.reference}" where "${due}" was due`);
      lastReference = result.reference;
      yield result;
    }
    if (inFlight.size > 0) throw new CipherdError(`the stream ended with ${inFlight.size} items unanswered`);
  } catch (e) {
    const broken = fromServiceError(e);
    broken.lastReference = lastReference;
    throw broken;
  } finally {
    stopped.abort();
    inFlight.close();
    stopListening();
    call.cancel();
  }
  if (sourceError !== undefined) throw sourceError;
}

async function sendAll<I, Req extends { reference: string }, Res, T>(
  call: ClientDuplexStream<Req, Res>,
  kind: StreamKind<I, Req, Res, T>,
  items: Items<I>,
  resumeAfter: string | undefined,
  inFlight: InFlight,
  stopped: AbortSignal,
): Promise<void> {
  let skipping = resumeAfter !== undefined;
  for await (const item of items) {
    if (stopped.aborted) return;
    const request = kind.request(item);
    if (skipping) {
      skipping = request.reference !== resumeAfter;
      continue;
    }
    await inFlight.room(STREAM_WINDOW);
    if (stopped.aborted) return;
    inFlight.sent(request.reference);
    if (!call.write(request)) {
      // A failed call rejects this too; the read side reports why.
      await once(call, "drain", { signal: stopped }).catch(() => {});
    }
  }
  if (skipping) throw new RangeError("resumeAfter is not the reference of any item");
}

/** The references sent and not yet answered, in order, and a wait for room among them. */
class InFlight {
  private readonly references: string[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  get size(): number {
    return this.references.length;
  }

  sent(reference: string): void {
    this.references.push(reference);
  }

  /** The reference due next, now answered. */
  answered(): string | undefined {
    const due = this.references.shift();
    this.notify();
    return due;
  }

  /** Resolves once fewer than `limit` are in flight, or the stream is over. */
  async room(limit: number): Promise<void> {
    while (!this.closed && this.references.length >= limit) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
