"""Wrapped key import (issue 33): what a caller can get out of an import job's private key, its expiry and
single use, the refusals, and a flood of CreateImportJob.

Budgets, against a server that takes no key material in the clear (the default), with jobs living 15 s, at
most 3 live per caller and 4 in all (an RSA key generation takes from 0.2 s to several seconds on a loaded
machine, so the lifetime leaves room for two):
- the wrapping key unwraps nothing but its own import: a blob wrapped for job A, given with job B (same key),
  fails as an unwrap failure, one answer (code, reason, message) for 4 different blobs; 0 keys imported.
- single use: a job whose import succeeded, or whose blob failed to unwrap, answers IMPORT_JOB_UNUSABLE to a
  good blob; a job made for another key too; after 16 s a job is IMPORT_JOB_UNUSABLE.
- no padding oracle: 8 tampered blobs (4 in the RSA-OAEP block, 4 in the RFC 5649 wrap, each on its own job)
  all answer INVALID_ARGUMENT "the wrapped key material did not unwrap" and nothing else, each within 2 s.
- a caller without `import` (`admin` alone, or nothing on the key): CreateImportJob and a wrapped ImportKey
  answer one PERMISSION_DENIED (code, reason, message apart from the key name) whether the key exists or not,
  and plaintext import by such a caller is PERMISSION_DENIED, never PLAINTEXT_IMPORT_DISABLED (which would
  tell the setting).
- a flood: 12 CreateImportJob from one caller get at most 3 jobs, the rest RESOURCE_EXHAUSTED within 5 s each
  (refused before any key is generated); a second caller then gets at most 1 more (4 in all).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import grpc
import pytest
from answers import Answer, unary
from certs import Pem
from conftest import EVERY_KEY, fresh
from policy import Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, serve, tls_and_policy

from cipherd import wrap_key_material
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

OWNER = Caller("owner", [Rule(EVERY_KEY, ["import", "admin", "inspect", "encrypt", "decrypt"])])
FLOODER = Caller("flooder", [Rule(["flood-*"], ["import"])])
SECOND = Caller("second", [Rule(["flood-*"], ["import"])])
ADMIN_ONLY = Caller("admin-only", [Rule(EVERY_KEY, ["admin", "inspect"])])
STRANGER = Caller("stranger", [Rule(["elsewhere-*"], ["import"])])
UNWRAP_FAILED = "the wrapped key material did not unwrap"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("import-jobs")
    policy = write_policy(d / "policy.yaml", [OWNER, FLOODER, SECOND, ADMIN_ONLY, STRANGER])
    with serve(
        d,
        [
            *tls_and_policy(server_pem, policy),
            "--import-job-ttl",
            "PT15S",
            "--import-jobs-per-caller",
            "3",
            "--import-jobs-max",
            "4",
        ],
        ca=pki.pem,
    ) as target:
        yield target


def _job(stubs: Stubs, key: str, caller: Caller = OWNER) -> admin_pb.ImportJob:
    response = stubs.admin.CreateImportJob(
        admin_pb.CreateImportJobRequest(key_name=key), metadata=caller.metadata, timeout=30
    )
    job: admin_pb.ImportJob = response.import_job
    return job


def _import(stubs: Stubs, key: str, job_id: str, blob: bytes, caller: Caller = OWNER) -> Answer:
    request = admin_pb.ImportKeyRequest(
        key_name=key, mode=keys_pb2.MODE_GCM, import_job_id=job_id, wrapped_key_material=blob
    )
    return unary(stubs.admin.ImportKey, request, caller.metadata)


def _shape(answer: Answer) -> tuple[grpc.StatusCode, str, str]:
    return answer.code, answer.reason, answer.message


def test_a_job_key_unwraps_nothing_but_its_own_import(server: Target) -> None:
    key = fresh("byok")
    answers = []
    with connect(server) as stubs:
        for _ in range(4):
            job_a = _job(stubs, key)
            job_b = _job(stubs, key)
            blob_for_a = wrap_key_material(job_a.public_key_pem, os.urandom(32))
            answers.append(_import(stubs, key, job_b.import_job_id, blob_for_a))
            # Job A is still good for its own blob: the positive control, and it frees the slot.
            assert _import(stubs, key, job_a.import_job_id, blob_for_a).ok
    shapes = {_shape(a) for a in answers}
    assert shapes == {(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT", UNWRAP_FAILED)}, shapes


def test_a_job_opens_one_import_and_only_for_its_key(server: Target) -> None:
    key = fresh("byok")
    with connect(server) as stubs:
        used = _job(stubs, key)
        good = wrap_key_material(used.public_key_pem, os.urandom(32))
        assert _import(stubs, key, used.import_job_id, good).ok
        again = _import(stubs, key, used.import_job_id, good)

        failed = _job(stubs, key)
        blob = bytearray(wrap_key_material(failed.public_key_pem, os.urandom(32)))
        blob[-1] ^= 1
        first = _import(stubs, key, failed.import_job_id, bytes(blob))
        retried = _import(stubs, key, failed.import_job_id, wrap_key_material(failed.public_key_pem, os.urandom(32)))

        other = _job(stubs, key)
        foreign = _import(stubs, fresh("byok"), other.import_job_id, wrap_key_material(other.public_key_pem, b"k" * 32))
        assert _import(stubs, key, other.import_job_id, wrap_key_material(other.public_key_pem, b"k" * 32)).ok
    assert first.message == UNWRAP_FAILED, first.brief()
    for answer in (again, retried, foreign):
        assert (answer.code, answer.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "IMPORT_JOB_UNUSABLE"), (
            answer.brief()
        )


def test_a_job_expires(server: Target) -> None:
    key = fresh("byok")
    with connect(server) as stubs:
        job = _job(stubs, key)
        blob = wrap_key_material(job.public_key_pem, os.urandom(32))
        time.sleep(16)
        late = _import(stubs, key, job.import_job_id, blob)
    assert (late.code, late.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "IMPORT_JOB_UNUSABLE"), late.brief()


def test_tampered_blobs_answer_alike_whichever_part_fails(server: Target) -> None:
    key = fresh("byok")
    answers = []
    with connect(server) as stubs:
        for i in range(8):
            job = _job(stubs, key)
            blob = bytearray(wrap_key_material(job.public_key_pem, os.urandom(32)))
            # 384 bytes of RSA-OAEP (3072-bit job), then 40 of RFC 5649: flip a byte in one part or the other.
            position = (i * 47) % 384 if i < 4 else 384 + (i * 5) % 40
            blob[position] ^= 0x01 << (i % 8)
            answers.append(_import(stubs, key, job.import_job_id, bytes(blob)))
    assert {_shape(a) for a in answers} == {(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT", UNWRAP_FAILED)}
    slowest = max(a.seconds for a in answers)
    print(f"8 tampered blobs: one answer, slowest {slowest:.3f} s")
    assert slowest < 2.0


def test_a_caller_without_import_learns_nothing(server: Target) -> None:
    existing = fresh("byok")
    missing = fresh("byok")
    with connect(server) as stubs:
        created = unary(stubs.admin.CreateKey, admin_pb.CreateKeyRequest(key_name=existing), OWNER.metadata)
        assert created.ok, created.brief()
        job = _job(stubs, existing)
        blob = wrap_key_material(job.public_key_pem, os.urandom(32))
        answers: dict[tuple[str, str, str], Answer] = {}
        for caller in (ADMIN_ONLY, STRANGER):
            for key in (existing, missing):
                answers[(caller.name, key, "job")] = unary(
                    stubs.admin.CreateImportJob, admin_pb.CreateImportJobRequest(key_name=key), caller.metadata
                )
                answers[(caller.name, key, "wrapped")] = _import(stubs, key, job.import_job_id, blob, caller)
                answers[(caller.name, key, "plaintext")] = unary(
                    stubs.admin.ImportKey,
                    admin_pb.ImportKeyRequest(key_name=key, key_material=os.urandom(32)),
                    caller.metadata,
                )
        # The refusals consumed nothing: the owner's job still imports.
        assert _import(stubs, existing, job.import_job_id, blob).ok
    for (name, key, kind), answer in answers.items():
        assert answer.code == grpc.StatusCode.PERMISSION_DENIED, f"{name} {kind} {key}: {answer.brief()}"
    for name in (ADMIN_ONLY.name, STRANGER.name):
        for kind in ("job", "wrapped", "plaintext"):
            a, b = answers[(name, existing, kind)], answers[(name, missing, kind)]
            assert (a.reason, a.message.replace(existing, "KEY")) == (b.reason, b.message.replace(missing, "KEY"))


def test_a_flood_of_jobs_is_bounded(server: Target) -> None:
    # The other attacks leave no live job: each is used, spent by a failed unwrap, or expired.
    with connect(server) as stubs:
        flood = [
            unary(
                stubs.admin.CreateImportJob, admin_pb.CreateImportJobRequest(key_name=fresh("flood")), FLOODER.metadata
            )
            for _ in range(12)
        ]
        second = [
            unary(
                stubs.admin.CreateImportJob, admin_pb.CreateImportJobRequest(key_name=fresh("flood")), SECOND.metadata
            )
            for _ in range(3)
        ]
    made = sum(a.ok for a in flood)
    refused = [a for a in flood + second if not a.ok]
    print(
        f"12 CreateImportJob by one caller: {made} jobs; 3 by another: {sum(a.ok for a in second)}; "
        f"slowest answer {max(a.seconds for a in flood + second):.2f} s"
    )
    assert made == 3
    assert sum(a.ok for a in second) == 1
    assert {a.code for a in refused} == {grpc.StatusCode.RESOURCE_EXHAUSTED}
    assert max(a.seconds for a in refused) < 5.0
