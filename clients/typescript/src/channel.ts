/** Channel credentials, options, call metadata and deadlines. */
import { credentials, type ChannelCredentials, type ChannelOptions, Metadata } from "@grpc/grpc-js";
import type { CallOptions, ClientOptions } from "./types.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export function channelCredentials(options: ClientOptions): ChannelCredentials {
  const tls = options.tls;
  if (tls === undefined) return credentials.createInsecure();
  if ((tls.cert === undefined) !== (tls.key === undefined)) throw new TypeError("mutual TLS needs both cert and key");
  const buf = (b: Uint8Array | undefined) => (b === undefined ? null : Buffer.from(b));
  return credentials.createSsl(buf(tls.ca), buf(tls.key), buf(tls.cert));
}

export function channelOptions(options: ClientOptions): ChannelOptions {
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const opts: ChannelOptions = { "grpc.max_receive_message_length": max, "grpc.max_send_message_length": max };
  if (options.tls?.serverName) opts["grpc.ssl_target_name_override"] = options.tls.serverName;
  return opts;
}

/** The bearer token as call metadata; empty without one (mTLS or no access policy). */
export function callMetadata(token: string | undefined): Metadata {
  const md = new Metadata();
  if (token) md.set("authorization", `Bearer ${token}`);
  return md;
}

export function deadline(call: CallOptions | undefined, fallbackMs: number | undefined): Date | undefined {
  const ms = call?.timeoutMs ?? fallbackMs;
  return ms === undefined ? undefined : new Date(Date.now() + ms);
}

/** Cancels `cancel` when `signal` aborts; returns the function that stops listening. */
export function onAbort(signal: AbortSignal | undefined, cancel: () => void): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    cancel();
    return () => {};
  }
  signal.addEventListener("abort", cancel, { once: true });
  return () => signal.removeEventListener("abort", cancel);
}
