"""Finding 3: response amplification by callers the server refuses.

An anonymous caller (no token) and a caller the policy refuses send requests with huge key names and
page tokens. A refusal that quotes what it refused turns every byte sent into a byte (per batch item!)
sent back: 2 KB of name in a 4,096-item batch becomes 8 MB of answer. Budget: a refused call answers
at most 1 KiB (status message plus trailers), a batch item's error at most 512 B; no answer is a
success; every call is answered before its 30 s deadline (DEADLINE_EXCEEDED fails, finding 9); and a
legitimate Encrypt afterwards answers OK within 2 s."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from answers import Answer, Metadata, unary
from conftest import Callers, fresh
from google.protobuf.message import Message
from keyring import create_key
from policy import ANONYMOUS_METADATA
from servers import Stubs, Target, connect

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

CALL_BUDGET = 1024
ITEM_BUDGET = 512
DEADLINE_S = 30.0
HEALTHY_S = 2.0

HUGE = "a" * 200_000
LONG = "a" * 2048
BATCH = 4096
LEGACY_BATCH = 1024  # items that each carry a 2 KB name: 4,096 of them would pass the 4 MiB message limit


@dataclass(frozen=True)
class Attack:
    name: str
    method: Callable[[Stubs], Any]
    request: Message


ATTACKS = [
    Attack("Encrypt 200 KB name", lambda s: s.crypto.Encrypt, pb.EncryptRequest(key_name=HUGE, plaintext=b"x")),
    Attack("GenerateDataKey 200 KB name", lambda s: s.crypto.GenerateDataKey, pb.GenerateDataKeyRequest(key_name=HUGE)),
    Attack(
        "ComputeIndex 200 KB name", lambda s: s.crypto.ComputeIndex, pb.ComputeIndexRequest(key_name=HUGE, value=b"x")
    ),
    Attack(
        "Decrypt 200 KB header name",
        lambda s: s.crypto.Decrypt,
        pb.DecryptRequest(ciphertext="<" + HUGE + "/v1:gcm>" + "A" * 40),
    ),
    Attack(
        "ReEncrypt into a 200 KB name",
        lambda s: s.crypto.ReEncrypt,
        pb.ReEncryptRequest(legacy=pb.LegacyCiphertext(key_name=HUGE, raw=b"\0" * 32), key_name=HUGE),
    ),
    Attack("GetKey 200 KB name", lambda s: s.admin.GetKey, admin_pb.GetKeyRequest(key_name=HUGE)),
    Attack(
        "ImportKey 200 KB name",
        lambda s: s.admin.ImportKey,
        admin_pb.ImportKeyRequest(key_name=HUGE, key_material=b"\0" * 32, mode=keys_pb2.MODE_GCM),
    ),
    Attack(
        "ListKeys 200 KB page token", lambda s: s.admin.ListKeys, admin_pb.ListKeysRequest(page_size=1, page_token=HUGE)
    ),
    Attack(
        f"EncryptBatch {BATCH} items, 2 KB name",
        lambda s: s.crypto.EncryptBatch,
        pb.EncryptBatchRequest(key_name=LONG, items=[pb.EncryptBatchItem(plaintext=b"x")] * BATCH),
    ),
    Attack(
        f"ComputeIndexBatch {BATCH} items, 2 KB name",
        lambda s: s.crypto.ComputeIndexBatch,
        pb.ComputeIndexBatchRequest(key_name=LONG, items=[pb.ComputeIndexBatchItem(value=b"x")] * BATCH),
    ),
    Attack(
        f"ReEncryptBatch {LEGACY_BATCH} legacy items, 2 KB names",
        lambda s: s.crypto.ReEncryptBatch,
        pb.ReEncryptBatchRequest(
            key_name=LONG,
            items=[pb.ReEncryptBatchItem(legacy=pb.LegacyCiphertext(key_name=LONG, raw=b"\0" * 32))] * LEGACY_BATCH,
        ),
    ),
    Attack(
        f"DecryptBatch {BATCH} items, 2 KB header names",
        lambda s: s.crypto.DecryptBatch,
        pb.DecryptBatchRequest(items=[pb.DecryptBatchItem(ciphertext="<" + LONG + "/v1:gcm>" + "A" * 40)] * BATCH),
    ),
]


def _item_errors(answer: Answer) -> list[tuple[int, str]] | None:
    """The (code, message) of each item of a batch answer, or None when the answer is not a batch."""
    results = getattr(answer.response, "results", None)
    if results is None:
        return None
    return [(r.error.code, r.error.message) if r.HasField("error") else (0, "") for r in results]


def _judge(attack: Attack, answer: Answer) -> list[str]:
    """What is wrong with `answer` to `attack`, if anything."""
    if answer.code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return [f"{attack.name}: not answered within {DEADLINE_S} s"]
    if not answer.ok:
        return [] if answer.size <= CALL_BUDGET else [f"{attack.name}: {answer.brief()} > {CALL_BUDGET} B"]
    items = _item_errors(answer)
    if items is None:
        if isinstance(answer.response, admin_pb.ListKeysResponse) and answer.size <= CALL_BUDGET:
            return []  # a listing of nothing is a fair answer to a caller who may see nothing
        return [f"{attack.name}: answered OK, {answer.size} B"]
    problems = []
    succeeded = sum(1 for code, _ in items if code == 0)
    if succeeded:
        problems.append(f"{attack.name}: {succeeded} of {len(items)} items succeeded")
    largest = max((len(message.encode()) for _, message in items), default=0)
    if largest > ITEM_BUDGET:
        problems.append(
            f"{attack.name}: item errors up to {largest} B > {ITEM_BUDGET} B, "
            f"{answer.size} B in all for a {attack.request.ByteSize()} B request"
        )
    return problems


@pytest.mark.parametrize("who", ["anonymous", "refused"])
def test_refused_callers_get_bounded_answers_to_huge_requests(
    policy_server: Target, callers: Callers, who: str
) -> None:
    metadata: Metadata = ANONYMOUS_METADATA if who == "anonymous" else callers.refused.metadata
    problems: list[str] = []
    with connect(policy_server) as stubs:
        for attack in ATTACKS:
            problems += _judge(attack, unary(attack.method(stubs), attack.request, metadata, DEADLINE_S))
    with connect(policy_server) as stubs:
        key = fresh("healthy")
        create_key(stubs, callers.admin.metadata, key)
        after = unary(
            stubs.crypto.Encrypt, pb.EncryptRequest(key_name=key, plaintext=b"x"), callers.admin.metadata, timeout=10
        )
    if not after.ok or after.seconds > HEALTHY_S:
        problems.append(f"a legitimate Encrypt afterwards: {after.brief()} (budget OK in {HEALTHY_S} s)")
    assert not problems, f"{who}:\n" + "\n".join(problems)
