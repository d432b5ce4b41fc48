"""Issue 27's expected key, attacked: planting a value in a column, and learning about other keys from the
refusal.

A ciphertext's header names the key that decrypts it, so a writer who may encrypt under some key and write a
column (a notes service with the users table open, say) can store there a value encrypted under its own key
with the column's context; a reader whose grant covers that key too (`decrypt` on `users-*`) decrypts it and
trusts it. `expected_key` is the reader's defence: a ciphertext under any other key is refused, before the key
is looked up or the access policy asked about it.

Budgets:
- 0 planted values accepted, out of every plant (two writer keys, one a near-miss name of the column's key)
  through every shape that decrypts or rewraps (Decrypt, ReEncrypt, a batch's expected key and an item's own,
  DecryptStream, ReEncryptStream items), where the reader sets expected_key. Controls: without it the plants
  decrypt (so the attack is real), and the column's own value passes with it.
- 0 bits about the other key from an UNEXPECTED_KEY refusal: for a key the caller may decrypt, one it may
  not, one that does not exist, a version that does not exist and a disabled key, the answers of a
  wide-grant and a narrow-grant caller are one status, one reason, one message and one ErrorInfo metadata
  (the other key's name aside), in every shape. Control: without expected_key the same calls tell those
  cases apart (at least 3 different answers), so the comparison could see an oracle.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from answers import Answer, stream, unary
from certs import Pem
from keyring import Envelope, create_key, encrypt
from policy import Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb

COLUMN_KEY = "users-email"
COLUMN = b"users.email/42"  # the column's context: any writer of the column knows it
ADMIN = Caller("pv-admin", [Rule(["*"], ["encrypt", "decrypt", "admin", "inspect"])])
# The application: reads and writes every users column, so its grant covers the writer's keys too.
READER = Caller("pv-reader", [Rule(["users-*"], ["encrypt", "decrypt", "reencrypt"])])
# A reader of the email column alone.
NARROW = Caller("pv-narrow", [Rule([COLUMN_KEY], ["decrypt", "reencrypt"])])
# The notes service: encrypts notes, and has the users table open for writing.
WRITER = Caller("pv-writer", [Rule(["users-notes", "users-email2"], ["encrypt"])])
WRITER_KEYS = ("users-notes", "users-email2")


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("planted-values")
    policy = write_policy(d / "policy.yaml", [ADMIN, READER, NARROW, WRITER])
    with serve(
        d,
        tls_and_policy(server_pem, policy),
        ca=pki.pem,
    ) as target:
        with connect(target) as stubs:
            for key in (COLUMN_KEY, *WRITER_KEYS, "users-disabled", "payroll"):
                create_key(stubs, ADMIN.metadata, key)
            stubs.admin.DisableKey(
                admin_pb.DisableKeyRequest(key_name="users-disabled"), metadata=ADMIN.metadata, timeout=30
            )
        yield target


def _accepted_by_every_shape(stubs: Stubs, ciphertexts: list[str], expected_key: str) -> dict[str, int]:
    """How many of `ciphertexts` the reader got back (plaintext or rewrapped), per shape, with `expected_key`."""
    meta = READER.metadata
    accepted: dict[str, int] = {}
    accepted["Decrypt"] = sum(
        unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=c, context=COLUMN, expected_key=expected_key), meta).ok
        for c in ciphertexts
    )
    accepted["ReEncrypt"] = sum(
        unary(
            stubs.crypto.ReEncrypt,
            pb.ReEncryptRequest(ciphertext=c, context=COLUMN, key_name=COLUMN_KEY, expected_key=expected_key),
            meta,
        ).ok
        for c in ciphertexts
    )
    items = [pb.DecryptBatchItem(reference=str(i), ciphertext=c, context=COLUMN) for i, c in enumerate(ciphertexts)]
    batch = unary(stubs.crypto.DecryptBatch, pb.DecryptBatchRequest(items=items, expected_key=expected_key), meta)
    assert batch.ok, batch.brief()
    accepted["DecryptBatch"] = sum(r.HasField("plaintext") for r in batch.response.results)
    own = [
        pb.DecryptBatchItem(reference=str(i), ciphertext=c, context=COLUMN, expected_key=expected_key)
        for i, c in enumerate(ciphertexts)
    ]
    # The item's own expectation, under a batch that expects any key of the family.
    batch = unary(stubs.crypto.DecryptBatch, pb.DecryptBatchRequest(items=own, expected_key="users-*"), meta)
    assert batch.ok, batch.brief()
    accepted["DecryptBatch item"] = sum(r.HasField("plaintext") for r in batch.response.results)
    rewraps = [pb.ReEncryptBatchItem(reference=str(i), ciphertext=c, context=COLUMN) for i, c in enumerate(ciphertexts)]
    batch = unary(
        stubs.crypto.ReEncryptBatch,
        pb.ReEncryptBatchRequest(key_name=COLUMN_KEY, items=rewraps, expected_key=expected_key),
        meta,
    )
    assert batch.ok, batch.brief()
    accepted["ReEncryptBatch"] = sum(r.HasField("ciphertext") for r in batch.response.results)
    responses, end = stream(
        stubs.crypto.DecryptStream,
        [
            pb.DecryptStreamRequest(reference=str(i), ciphertext=c, context=COLUMN, expected_key=expected_key)
            for i, c in enumerate(ciphertexts)
        ],
        meta,
    )
    assert end.ok and len(responses) == len(ciphertexts), end.brief()
    accepted["DecryptStream"] = sum(r.result.HasField("plaintext") for r in responses)
    responses, end = stream(
        stubs.crypto.ReEncryptStream,
        [
            pb.ReEncryptStreamRequest(
                reference=str(i), ciphertext=c, context=COLUMN, key_name=COLUMN_KEY, expected_key=expected_key
            )
            for i, c in enumerate(ciphertexts)
        ],
        meta,
    )
    assert end.ok and len(responses) == len(ciphertexts), end.brief()
    accepted["ReEncryptStream"] = sum(r.result.HasField("ciphertext") for r in responses)
    return accepted


def test_a_writer_with_another_key_cannot_plant_a_value_in_a_column_read_with_its_expected_key(planted: Target) -> None:
    with connect(planted) as stubs:
        plants = [
            encrypt(stubs, WRITER.metadata, key, b"attacker@evil.example", COLUMN)
            for key in WRITER_KEYS
            for _ in range(4)
        ]
        real = encrypt(stubs, READER.metadata, COLUMN_KEY, b"alice@example.com", COLUMN)

        without = _accepted_by_every_shape(stubs, plants, "")
        exact = _accepted_by_every_shape(stubs, plants, COLUMN_KEY)
        prefix = _accepted_by_every_shape(stubs, plants, COLUMN_KEY + "*")
        control = _accepted_by_every_shape(stubs, [real], COLUMN_KEY)

    assert all(n == len(plants) for n in without.values()), f"control: the plants must decrypt without it: {without}"
    assert all(n == 1 for n in control.values()), f"control: the column's own value must pass: {control}"
    # 'users-email*' also matches 'users-email2': a prefix is only as tight as the key names under it.
    assert prefix["Decrypt"] == len(plants) // 2, f"prefix 'users-email*': {prefix}"
    assert not any(exact.values()), f"planted values accepted with expected_key {COLUMN_KEY!r}: {exact}"


def _others(stubs: Stubs) -> dict[str, str]:
    """Ciphertexts with the column's context under keys other than the column's, one per case."""
    notes = encrypt(stubs, ADMIN.metadata, "users-notes", b"x", COLUMN)
    payroll = encrypt(stubs, ADMIN.metadata, "payroll", b"x", COLUMN)
    return {
        "a key the caller may decrypt (wide) or not (narrow)": notes,
        "a key no caller here may decrypt": payroll,
        "a key that does not exist": Envelope.parse(notes).with_key("users-ghost"),
        "a version that does not exist": notes.replace("/v1:", "/v9:", 1),
        "a disabled key": Envelope.parse(notes).with_key("users-disabled"),
    }


def _shape_answers(stubs: Stubs, caller: Caller, ciphertext: str, expected_key: str) -> dict[str, tuple[object, ...]]:
    """Each shape's answer for one ciphertext: status, reason, message and metadata, the header's key as <KEY>."""
    key = Envelope.parse(ciphertext).header[1:].split("/")[0]

    def normal(text: str) -> str:
        return text.replace(f"'{key}'", "'<KEY>'")

    def call(answer: Answer) -> tuple[object, ...]:
        return (
            answer.code.name,
            answer.reason,
            normal(answer.message),
            tuple((k, "<KEY>" if v == key else v) for k, v in answer.error_metadata),
        )

    def item(error: pb.ItemError) -> tuple[object, ...]:
        return (error.code, error.reason, normal(error.message))

    meta = caller.metadata
    answers: dict[str, tuple[object, ...]] = {
        "Decrypt": call(
            unary(
                stubs.crypto.Decrypt,
                pb.DecryptRequest(ciphertext=ciphertext, context=COLUMN, expected_key=expected_key),
                meta,
            )
        ),
        "ReEncrypt": call(
            unary(
                stubs.crypto.ReEncrypt,
                pb.ReEncryptRequest(ciphertext=ciphertext, context=COLUMN, expected_key=expected_key),
                meta,
            )
        ),
    }
    batch = unary(
        stubs.crypto.DecryptBatch,
        pb.DecryptBatchRequest(
            expected_key=expected_key, items=[pb.DecryptBatchItem(ciphertext=ciphertext, context=COLUMN)]
        ),
        meta,
    )
    answers["DecryptBatch item"] = item(batch.response.results[0].error) if batch.ok else call(batch)
    batch = unary(
        stubs.crypto.ReEncryptBatch,
        pb.ReEncryptBatchRequest(
            expected_key=expected_key, items=[pb.ReEncryptBatchItem(ciphertext=ciphertext, context=COLUMN)]
        ),
        meta,
    )
    answers["ReEncryptBatch item"] = item(batch.response.results[0].error) if batch.ok else call(batch)
    responses, end = stream(
        stubs.crypto.DecryptStream,
        [pb.DecryptStreamRequest(reference="r", ciphertext=ciphertext, context=COLUMN, expected_key=expected_key)],
        meta,
    )
    answers["DecryptStream item"] = item(responses[0].result.error) if responses else call(end)
    responses, end = stream(
        stubs.crypto.ReEncryptStream,
        [pb.ReEncryptStreamRequest(reference="r", ciphertext=ciphertext, context=COLUMN, expected_key=expected_key)],
        meta,
    )
    answers["ReEncryptStream item"] = item(responses[0].result.error) if responses else call(end)
    return answers


def test_an_unexpected_key_refusal_says_nothing_about_the_other_key_or_the_callers_grant_on_it(planted: Target) -> None:
    with connect(planted) as stubs:
        others = _others(stubs)
        refusals = {
            (caller.name, case): _shape_answers(stubs, caller, ciphertext, COLUMN_KEY)
            for caller in (READER, NARROW)
            for case, ciphertext in others.items()
        }
        unguarded = {
            (caller.name, case): _shape_answers(stubs, caller, ciphertext, "")
            for caller in (READER, NARROW)
            for case, ciphertext in others.items()
        }

    shapes = next(iter(refusals.values())).keys()
    for shape in shapes:
        distinct = {answers[shape] for answers in refusals.values()}
        assert len(distinct) == 1, f"{shape}: {len(distinct)} different refusals: " + "; ".join(map(str, distinct))
        (answer,) = distinct
        assert "UNEXPECTED_KEY" in answer, f"{shape}: {answer}"
        assert answer[0] in (grpc.StatusCode.INVALID_ARGUMENT.name, grpc.StatusCode.INVALID_ARGUMENT.value[0])
    told_apart = {answers["Decrypt"] for answers in unguarded.values()}
    assert len(told_apart) >= 3, f"control: without expected_key the cases must differ, got {told_apart}"
