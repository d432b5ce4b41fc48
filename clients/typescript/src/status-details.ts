/**
 * Reads the reason of the google.rpc.ErrorInfo that cipherd puts in a failed call's status details
 * (the `grpc-status-details-bin` trailer, a serialized google.rpc.Status), with the generated messages.
 */
import type { Metadata } from "@grpc/grpc-js";
import { ErrorInfo } from "./gen/google/rpc/error_details.js";
import { Status } from "./gen/google/rpc/status.js";

/** The domain of cipherd's ErrorInfo; an ErrorInfo of another domain is not cipherd's reason. */
export const ERROR_DOMAIN = "cipherd.io";

export const STATUS_DETAILS_KEY = "grpc-status-details-bin";

const ERROR_INFO_TYPE_URL = "type.googleapis.com/google.rpc.ErrorInfo";

/** The reason of cipherd's ErrorInfo and its metadata (the key, version or versions an error is about). */
export interface ErrorInfoOf {
  reason: string;
  metadata: Readonly<Record<string, string>>;
}

const NO_INFO: ErrorInfoOf = Object.freeze({ reason: "", metadata: Object.freeze({}) });

/** cipherd's ErrorInfo in serialized google.rpc.Status bytes; reason "" if it has none. */
export function errorInfoOfStatus(bytes: Uint8Array): ErrorInfoOf {
  let details: Status["details"];
  try {
    details = Status.decode(bytes).details;
  } catch {
    return NO_INFO; // Unreadable details fall back to the status code, like missing ones.
  }
  for (const any of details) {
    if (any.typeUrl !== ERROR_INFO_TYPE_URL) continue;
    try {
      const info = ErrorInfo.decode(any.value);
      if (info.domain === ERROR_DOMAIN && info.reason !== "")
        return { reason: info.reason, metadata: Object.freeze({ ...info.metadata }) };
    } catch {
      // A malformed detail is skipped; another one may still be cipherd's.
    }
  }
  return NO_INFO;
}

/** The `reason` of cipherd's ErrorInfo in serialized google.rpc.Status bytes; "" if it has none. */
export function reasonOfStatus(bytes: Uint8Array): string {
  return errorInfoOfStatus(bytes).reason;
}

/** cipherd's ErrorInfo in a failed call's trailers; reason "" if there is none. */
export function errorInfoOfMetadata(metadata: Metadata | undefined): ErrorInfoOf {
  for (const value of metadata?.get(STATUS_DETAILS_KEY) ?? []) {
    if (typeof value === "string") continue;
    const info = errorInfoOfStatus(value);
    if (info.reason !== "") return info;
  }
  return NO_INFO;
}

/** The reason of cipherd's ErrorInfo in a failed call's trailers; "" if there is none. */
export function reasonOfMetadata(metadata: Metadata | undefined): string {
  return errorInfoOfMetadata(metadata).reason;
}
