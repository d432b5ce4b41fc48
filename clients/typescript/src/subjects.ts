/**
 * Data subjects (proto/README.md, "Subject-bound ciphertexts"): what eraseSubject, eraseSubjects and getSubject
 * return, and their requests. A subject id is personal data: no value this module returns holds one.
 */
import { fromItemError } from "./errors.js";
import {
  type EraseSubjectsRequest,
  type EraseSubjectsResponse,
  type GetSubjectResponse,
  type SubjectErasure as SubjectErasureProto,
  SubjectErasureOutcome,
  SubjectState as SubjectStateProto,
} from "./gen/cipherd/v1/subject_service.js";
import { CipherdError } from "./errors.js";
import { ItemResult } from "./types.js";

/** Subjects per EraseSubjects call; the server's default limit of batch items is 4096. */
export const MAX_SUBJECTS_PER_CALL = 1000;

/**
 * What erasing a subject did: "erased" (this call; the erasure carries a receipt), "already_erased" (an
 * earlier call; eraseTime is its) or "no_key" (the subject never had a key under the key name).
 */
export type ErasureOutcome = "erased" | "already_erased" | "no_key" | "unspecified";

/**
 * The audit record of an erasure, to check later against the trail (cipherctl subjects verify-receipt). It
 * names the subject by `subjectHash` only: the audit key's hash of the id (lowercase hex), as hashAuditValue
 * gives it and as the audit record names it; `recordHash` is the record's chain hash (lowercase hex).
 */
export interface ErasureReceipt {
  keyName: string;
  subjectHash: string;
  eraseTime: Date | undefined;
  trail: string;
  auditSeq: number;
  recordHash: string;
}

/** The outcome of erasing one subject; eraseTime is undefined for "no_key", receipt set for "erased" on a server with a trail. */
export interface SubjectErasure {
  outcome: ErasureOutcome;
  eraseTime: Date | undefined;
  receipt: ErasureReceipt | undefined;
}

/** One subject of eraseSubjects; `reference` is echoed in its result. */
export interface SubjectItem {
  subject: string;
  reference?: string;
}

/** A subject's state under a key: "active" (its data decrypts), "erased", or "no_key" (it never had a key). */
export type SubjectState = "active" | "erased" | "no_key" | "unspecified";

/**
 * What getSubject says of a subject: its state, when its (current, or erased) key was made (undefined for
 * "no_key"), when it was erased ("erased" only) and the key version that wraps its key now (0 unless "active").
 */
export interface SubjectStatus {
  state: SubjectState;
  createTime: Date | undefined;
  eraseTime: Date | undefined;
  keyVersion: number;
}

export function erasure(e: SubjectErasureProto | undefined): SubjectErasure {
  const outcome = SubjectErasureOutcome[e?.outcome ?? 0] ?? "SUBJECT_ERASURE_OUTCOME_UNSPECIFIED";
  const r = e?.receipt;
  return {
    outcome: outcome.replace("SUBJECT_ERASURE_OUTCOME_", "").toLowerCase() as ErasureOutcome,
    eraseTime: e?.eraseTime,
    receipt:
      r === undefined
        ? undefined
        : {
            keyName: r.keyName,
            subjectHash: r.subjectHash,
            eraseTime: r.eraseTime,
            trail: r.trail,
            auditSeq: r.auditSeq,
            recordHash: r.recordHash,
          },
  };
}

/** EraseSubjects requests of at most MAX_SUBJECTS_PER_CALL items each, in order. */
export function* eraseRequests(
  keyName: string,
  items: Iterable<SubjectItem | string>,
): Generator<EraseSubjectsRequest> {
  let chunk: EraseSubjectsRequest["items"] = [];
  for (const item of items) {
    const i = typeof item === "string" ? { subject: item } : item;
    chunk.push({ reference: i.reference ?? "", subject: i.subject });
    if (chunk.length === MAX_SUBJECTS_PER_CALL) {
      yield { keyName, items: chunk };
      chunk = [];
    }
  }
  if (chunk.length > 0) yield { keyName, items: chunk };
}

/** One result per request item, in order; a CipherdError when the server answered another count, so no item is lost unsaid. */
export function eraseResults(
  request: EraseSubjectsRequest,
  response: EraseSubjectsResponse,
): ItemResult<SubjectErasure>[] {
  if (response.results.length !== request.items.length) {
    throw new CipherdError(
      `the server answered ${response.results.length} results for ${request.items.length} subjects`,
    );
  }
  return response.results.map((r) =>
    r.error !== undefined
      ? new ItemResult<SubjectErasure>(r.reference, undefined, fromItemError(r.error))
      : new ItemResult(r.reference, erasure(r.erasure), undefined),
  );
}

export function subjectStatus(r: GetSubjectResponse): SubjectStatus {
  const state = SubjectStateProto[r.state] ?? "SUBJECT_STATE_UNSPECIFIED";
  return {
    state: state.replace("SUBJECT_STATE_", "").toLowerCase() as SubjectState,
    createTime: r.createTime,
    eraseTime: r.eraseTime,
    keyVersion: r.keyVersion,
  };
}
