/** ReEncryptStream as an async iterable in and out, with the request side paced by the call's backpressure. */
import { once } from "node:events";
import type { ClientDuplexStream } from "@grpc/grpc-js";
import { fromServiceError } from "./errors.js";
import { rewrapResult, streamRequest } from "./convert.js";
import type { ReEncryptStreamRequest, ReEncryptStreamResponse } from "./gen/cipherd/v1/crypto_service.js";
import type { CiphertextItem, Rewrapped } from "./types.js";
import type { ItemResult } from "./types.js";

export type StreamItems = AsyncIterable<CiphertextItem | string> | Iterable<CiphertextItem | string>;
type Call = ClientDuplexStream<ReEncryptStreamRequest, ReEncryptStreamResponse>;

/** Yields one result per item, in order; leaving the loop early (or aborting) cancels the call. */
export async function* rewrapStream(call: Call, items: StreamItems, stopListening: () => void): AsyncGenerator<ItemResult<Rewrapped>> {
  let finished = false;
  let sendError: unknown;
  const send = async () => {
    try {
      for await (const item of items) {
        if (finished) return;
        if (!call.write(streamRequest(item))) await once(call, "drain");
      }
      call.end();
    } catch (e) {
      // A failing item source ends the call; the read side below reports it.
      sendError ??= e;
      call.cancel();
    }
  };
  void send();
  try {
    for await (const response of call as AsyncIterable<ReEncryptStreamResponse>) {
      yield rewrapResult(response.result);
    }
  } catch (e) {
    throw sendError ?? fromServiceError(e);
  } finally {
    finished = true;
    stopListening();
    call.cancel();
  }
  if (sendError !== undefined) throw sendError;
}
