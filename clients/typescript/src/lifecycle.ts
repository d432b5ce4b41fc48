/**
 * A key's lifecycle (proto/README.md, "Errors"; key_admin_service.proto): the requests of the lifecycle
 * calls, a retirement's answer, and state names. Durations are whole seconds; an unset pending window is
 * the server's 7 days, and it refuses less than 24 hours.
 */
import {
  DataInventory,
  type RetireKeyVersionsRequest,
  type RetireKeyVersionsResponse,
  type ScheduleKeyDeletionRequest,
  type ScheduleKeyVersionDestructionRequest,
} from "./gen/cipherd/v1/key_admin_service.js";
import { type Key, KeyState, KeyVersionState } from "./gen/cipherd/v1/keys.js";
import type { Duration } from "./gen/google/protobuf/duration.js";
import { secondsToDuration } from "./keys.js";

/**
 * What one scan of stored data found (cipherctl scan): how many ciphertexts name each version of one key
 * in `source` ("postgres:users.email", at most 256 characters), `versions` mapping version to count.
 */
export interface InventoryInput {
  keyName: string;
  source: string;
  versions: Record<number, number> | Map<number, number>;
  scanTime?: Date;
  itemsScanned?: number;
}

/**
 * retireKeyVersions' options: the quiet period and pending window in seconds (unset: 7 days each), a dry
 * run, and inventories of the stored data: the retirement is refused (KeyVersionsInUseError, its `source`
 * naming the inventory) while one counts a ciphertext under a version it would retire. Traffic shows what is
 * read; an inventory shows what exists, cold rows included.
 */
export interface RetireOptions {
  quietPeriodSeconds?: number;
  pendingWindowSeconds?: number;
  /** Answer the plan (or the refusal) without changing the key. */
  dryRun?: boolean;
  inventories?: Iterable<InventoryInput | DataInventory>;
}

/** What retireKeyVersions did, or with dryRun would do. */
export interface Retirement {
  key: Key;
  /** The versions scheduled for destruction, oldest first. */
  retiredVersions: number[];
  /** When their bytes are erased; undefined when none retire. */
  destroyTime: Date | undefined;
}

function optionalSeconds(seconds: number | undefined, name: string): Duration | undefined {
  return seconds === undefined ? undefined : secondsToDuration(seconds, name);
}

export function destructionRequest(
  keyName: string,
  versions: Iterable<number>,
  pendingWindowSeconds: number | undefined,
): ScheduleKeyVersionDestructionRequest {
  return {
    keyName,
    versions: [...versions],
    pendingWindow: optionalSeconds(pendingWindowSeconds, "pendingWindowSeconds"),
  };
}

export function deletionRequest(keyName: string, pendingWindowSeconds: number | undefined): ScheduleKeyDeletionRequest {
  return { keyName, pendingWindow: optionalSeconds(pendingWindowSeconds, "pendingWindowSeconds") };
}

export function retireRequest(keyName: string, belowVersion: number, options: RetireOptions): RetireKeyVersionsRequest {
  return {
    keyName,
    belowVersion,
    quietPeriod: optionalSeconds(options.quietPeriodSeconds, "quietPeriodSeconds"),
    pendingWindow: optionalSeconds(options.pendingWindowSeconds, "pendingWindowSeconds"),
    validateOnly: options.dryRun ?? false,
    inventories: [...(options.inventories ?? [])].map(inventoryToProto),
  };
}

function inventoryToProto(inventory: InventoryInput | DataInventory): DataInventory {
  const counts = inventory.versions;
  if (Array.isArray(counts)) return DataInventory.fromPartial(inventory as DataInventory);
  const entries =
    counts instanceof Map ? [...counts.entries()] : Object.entries(counts).map(([v, n]) => [Number(v), n] as const);
  return DataInventory.fromPartial({
    keyName: inventory.keyName,
    source: inventory.source,
    scanTime: inventory.scanTime,
    itemsScanned: inventory.itemsScanned ?? 0,
    versions: entries.sort((a, b) => a[0] - b[0]).map(([version, ciphertexts]) => ({ version, ciphertexts })),
  });
}

export function retirement(response: RetireKeyVersionsResponse): Retirement {
  if (response.key === undefined) throw new Error("the server answered a retirement without its key");
  return { key: response.key, retiredVersions: response.retiredVersions, destroyTime: response.destroyTime };
}

/** A key's state in lower case ("enabled", "disabled", "deletion_scheduled", "deleted"); unspecified reads "enabled". */
export function keyStateName(state: KeyState): string {
  if (state === KeyState.KEY_STATE_UNSPECIFIED) return "enabled";
  return (KeyState[state] ?? "UNRECOGNIZED").replace(/^KEY_STATE_/, "").toLowerCase();
}

/** A version's state in lower case ("enabled", "destruction_scheduled", "destroyed"); unspecified reads "enabled". */
export function versionStateName(state: KeyVersionState): string {
  if (state === KeyVersionState.KEY_VERSION_STATE_UNSPECIFIED) return "enabled";
  return (KeyVersionState[state] ?? "UNRECOGNIZED").replace(/^KEY_VERSION_STATE_/, "").toLowerCase();
}
