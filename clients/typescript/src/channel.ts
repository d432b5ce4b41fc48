/** Channel credentials, options, call metadata and deadlines. */
import { credentials, type ChannelCredentials, type ChannelOptions, Metadata } from "@grpc/grpc-js";
import type { CallOptions, ClientOptions } from "./types.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Plaintext only when asked for (`insecure`) or, without `tls`, to a loopback target; any other target
 * gets TLS with the system roots, so plaintexts and tokens never cross a network unencrypted by default
 * (as the server refuses plaintext off loopback).
 */
export function channelCredentials(target: string, options: ClientOptions): ChannelCredentials {
  if (options.insecure && options.tls !== undefined) throw new TypeError("insecure conflicts with tls");
  if (options.insecure || (options.tls === undefined && isLoopback(target))) return credentials.createInsecure();
  const tls = options.tls ?? {};
  if ((tls.cert === undefined) !== (tls.key === undefined)) throw new TypeError("mutual TLS needs both cert and key");
  const buf = (b: Uint8Array | undefined) => (b === undefined ? null : Buffer.from(b));
  return credentials.createSsl(buf(tls.ca), buf(tls.key), buf(tls.cert));
}

/** Whether a host:port target names this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopback(target: string): boolean {
  const colon = target.lastIndexOf(":");
  if (colon < 0 || !/^\d+$/.test(target.slice(colon + 1))) return false;
  let host = target.slice(0, colon);
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host === "localhost" || host === "::1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
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
