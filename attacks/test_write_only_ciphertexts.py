"""Issue 27: write-only ciphertexts. A caller with `encrypt` (and `decrypt`, to check) looks for a plaintext
whose ciphertext the server accepts but can never bring back: Decrypt and ReEncrypt share Encrypt's
`--max-message-bytes` (4 MiB), and a ciphertext is 4/3 of its plaintext, so before the limit every plaintext
from about 3.1 MB to 4 MiB encrypted and then failed RESOURCE_EXHAUSTED on the way back.

Tried: Encrypt at the documented largest plaintext and 1 and 3 bytes over it, with contexts of 0 bytes, 64 KiB
and 1 MiB, and 3.5 MB (inside the old write-only range); EncryptStream and EncryptBatch items with a 2 KiB
reference at the largest and one over (GenerateDataKey needs the `datakey` grant: the Java test covers it). Every
accepted ciphertext is brought back by Decrypt (with its context, and an expected key of 64 characters) and
ReEncrypt. Budget: 0 accepted ciphertexts that do not come back; every answer fits a default client's 4 MiB
receive size; every refusal INVALID_ARGUMENT (reason INVALID_ARGUMENT) naming the largest plaintext, within
5 s."""

from __future__ import annotations

import grpc
from answers import Answer, stream, unary
from conftest import Callers, fresh
from keyring import create_key
from servers import Stubs, Target, connect

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import keys_pb2

MAX_MESSAGE = 4 * 1024 * 1024
REFERENCE = "r" * 2048


def largest(extra: int) -> int:
    """proto/README.md, "Size limits"."""
    return 3 * ((MAX_MESSAGE - 352 - extra) // 4) - 40


def _comes_back(
    stubs: Stubs, metadata: tuple[tuple[str, str], ...], key: str, ciphertext: str, context: bytes, size: int
) -> list[str]:
    problems = []
    back = unary(
        stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=ciphertext, context=context, expected_key=key), metadata
    )
    if not back.ok or len(back.response.plaintext) != size:
        problems.append(f"Decrypt of a {size}-byte plaintext: {back.brief()}")
    rewrap = unary(
        stubs.crypto.ReEncrypt,
        pb.ReEncryptRequest(ciphertext=ciphertext, context=context, key_name=key, expected_key=key),
        metadata,
    )
    if not rewrap.ok:
        problems.append(f"ReEncrypt of a {size}-byte plaintext: {rewrap.brief()}")
    return problems


def _refusal_problem(answer: Answer, what: str) -> str | None:
    if (
        answer.code != grpc.StatusCode.INVALID_ARGUMENT
        or answer.reason != "INVALID_ARGUMENT"
        or "the largest this server encrypts" not in answer.message
        or answer.seconds > 5
    ):
        return f"{what}: {answer.brief()}, want INVALID_ARGUMENT naming the largest plaintext within 5 s"
    return None


def test_no_plaintext_encrypts_to_a_ciphertext_that_cannot_come_back(policy_server: Target, callers: Callers) -> None:
    key = fresh("w") + "x" * 48  # 64 characters: the longest header
    metadata = tuple(callers.reader_writer.metadata)
    write_only: list[str] = []
    refusals: list[str] = []
    with connect(policy_server) as stubs:
        create_key(stubs, callers.admin.metadata, key, keys_pb2.MODE_XGCM)  # the mode that expands most
        for context_size in (0, 64 * 1024, 1024 * 1024):
            context = b"c" * context_size
            top = largest(context_size)
            for size in (top, top + 1, top + 3, 3_500_000):
                if size + context_size > MAX_MESSAGE - 512:
                    continue  # the request itself is over the message limit: gRPC's RESOURCE_EXHAUSTED
                answer = unary(
                    stubs.crypto.Encrypt,
                    pb.EncryptRequest(key_name=key, plaintext=b"p" * size, context=context),
                    metadata,
                )
                if answer.ok:
                    assert answer.size <= MAX_MESSAGE
                    if size > top:
                        write_only.append(f"Encrypt accepted {size} bytes with a {context_size}-byte context")
                    write_only += _comes_back(stubs, metadata, key, answer.response.ciphertext, context, size)
                elif problem := _refusal_problem(answer, f"Encrypt of {size} bytes, {context_size}-byte context"):
                    refusals.append(problem)
                if size > top and answer.ok is False and f"is {top} bytes" not in answer.message:
                    refusals.append(f"the refusal of {size} bytes does not name {top}: {answer.message[:200]}")

        context = b"c" * (64 * 1024)
        top = largest(len(context) + len(REFERENCE))
        items = [
            pb.EncryptStreamRequest(reference=REFERENCE, key_name=key, plaintext=b"s" * size, context=context)
            for size in (top, top + 1)
        ]
        answers, end = stream(stubs.crypto.EncryptStream, items, metadata)
        assert end.ok and len(answers) == 2, end.brief()
        fits, over = answers[0].result, answers[1].result
        if fits.HasField("error"):
            write_only.append(f"EncryptStream refused the largest item: {fits.error.message}")
        else:
            write_only += _comes_back(stubs, metadata, key, fits.ciphertext, context, top)
        if not over.HasField("error") or over.error.reason != "INVALID_ARGUMENT":
            write_only.append(f"EncryptStream accepted an item of {top + 1} bytes")

        for size in (top, top + 1):
            batch = unary(
                stubs.crypto.EncryptBatch,
                pb.EncryptBatchRequest(
                    key_name=key,
                    items=[pb.EncryptBatchItem(reference=REFERENCE, plaintext=b"b" * size, context=context)],
                ),
                metadata,
            )
            assert batch.ok and batch.size <= MAX_MESSAGE, batch.brief()
            result = batch.response.results[0]
            if size == top and not result.HasField("error"):
                back = unary(
                    stubs.crypto.DecryptBatch,
                    pb.DecryptBatchRequest(
                        expected_key=key,
                        items=[
                            pb.DecryptBatchItem(
                                reference=REFERENCE, ciphertext=result.ciphertext, context=context, expected_key=key
                            )
                        ],
                    ),
                    metadata,
                )
                if not back.ok or back.response.results[0].HasField("error"):
                    write_only.append(f"DecryptBatch of the largest batch item: {back.brief()}")
            elif size > top and not result.HasField("error"):
                write_only.append(f"EncryptBatch accepted an item of {size} bytes")

    assert not write_only, write_only
    assert not refusals, refusals
