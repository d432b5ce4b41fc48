"""A data subject erased through one replica of a chart-deployed cipherd, for deploy/k8s/test-k8s.

  erasure.py SERVICE POD,POD[,...] KEY TTL_SECONDS
Encrypts for subject A on the first pod and for subject B on the last, decrypts both on every other pod
(the replicas share the subject store), then once more on every pod right before the erasure, so each
replica has both subject keys in its cache. Erases A through the first pod as the eraser (a caller whose
only operation is `erase`, token in CIPHERD_ERASER_TOKEN), then asks every pod, every 0.1 s, for A's
ciphertext until each refuses it with FAILED_PRECONDITION SUBJECT_ERASED. Fails unless every pod refuses
within TTL_SECONDS of the erasure's answer (the chart's subjectStore.cacheTtl; 0.5 s more for the calls
themselves), if any other error arrives meanwhile (never "decryption failed"), if the Service does not
refuse too, if an encrypt for A is not refused, or if B's ciphertext stops decrypting anywhere.
The caller's token comes from CIPHERD_TOKEN, TLS settings as for load.py. Prints timings, never
plaintexts, ciphertexts or subject ids.
"""

from __future__ import annotations

import os
import secrets
import sys
import time

from load import client

from cipherd.errors import SubjectErasedError

SLACK_SECONDS = 0.5


def refused(error: SubjectErasedError) -> None:
    if error.code.name != "FAILED_PRECONDITION" or error.reason != "SUBJECT_ERASED":
        raise AssertionError(f"refused with {error.code.name} {error.reason}, want FAILED_PRECONDITION SUBJECT_ERASED")


def main(service: str, pods: list[str], key: str, ttl: float) -> None:
    run = secrets.token_hex(4)
    subject_a, subject_b = f"k8s-erased-{run}", f"k8s-kept-{run}"
    plain_a, plain_b = secrets.token_bytes(48), secrets.token_bytes(48)
    replicas = {pod: client(pod, i) for i, pod in enumerate(pods)}
    first, last = replicas[pods[0]], replicas[pods[-1]]
    ct_a = first.encrypt(key, plain_a, subject=subject_a)
    ct_b = last.encrypt(key, plain_b, subject=subject_b)
    for pod, c in replicas.items():
        assert c.decrypt(ct_a) == plain_a, f"{pod} does not decrypt subject A's ciphertext made on {pods[0]}"
        assert c.decrypt(ct_b) == plain_b, f"{pod} does not decrypt subject B's ciphertext made on {pods[-1]}"
    print(f"test-k8s: ok: subject-bound ciphertexts made on one replica decrypt on every replica ({len(pods)})")

    for c in replicas.values():  # every replica has A's key cached, at most a moment before the erasure
        c.decrypt(ct_a)
    with client(pods[0], len(pods) + 1, token=os.environ["CIPHERD_ERASER_TOKEN"]) as eraser:
        erasure = eraser.erase_subject(key, subject_a)
    erased_at = time.monotonic()
    if erasure.outcome != "erased" or erasure.erase_time is None:  # a receipt too, with the audit trail on
        raise AssertionError(f"EraseSubject answered {erasure.outcome}, erase_time {erasure.erase_time}")

    served_after: dict[str, float] = {}  # how long each replica still served A from its cache
    refused_after: dict[str, float] = {}
    while len(refused_after) < len(pods):
        for pod, c in replicas.items():
            if pod in refused_after:
                continue
            sent = time.monotonic() - erased_at
            try:
                if c.decrypt(ct_a) != plain_a:
                    raise AssertionError(f"{pod} decrypted subject A's ciphertext to other bytes")
                served_after[pod] = sent
            except SubjectErasedError as e:
                refused(e)
                refused_after[pod] = sent
        if time.monotonic() - erased_at > ttl + SLACK_SECONDS:
            break
        time.sleep(0.1)
    late = {pod: served_after.get(pod) for pod in pods if pod not in refused_after}
    if late:
        raise AssertionError(
            f"replicas still decrypt an erased subject {ttl + SLACK_SECONDS}s after the erasure: {late}"
        )
    worst = max(refused_after.values())
    if worst > ttl + SLACK_SECONDS:
        raise AssertionError(f"a replica refused the erased subject only after {worst:.2f}s, over the {ttl}s bound")
    cached = ", ".join(f"{served_after[p]:.2f}s" if p in served_after else "never" for p in pods)
    print(
        f"test-k8s: ok: subject erased through one replica: every replica ({len(pods)}) refuses it with "
        f"FAILED_PRECONDITION SUBJECT_ERASED within {worst:.2f}s (bound: subjectStore.cacheTtl {ttl}s); "
        f"served from a replica's cache after the erasure for at most: {cached}"
    )

    with client(service, len(pods)) as via_service:
        try:
            via_service.decrypt(ct_a)
            raise AssertionError("the Service decrypts an erased subject")
        except SubjectErasedError as e:
            refused(e)
        try:
            via_service.encrypt(key, b"again", subject=subject_a)
            raise AssertionError("an encrypt for an erased subject was served without renew_erased_subject")
        except SubjectErasedError as e:
            refused(e)
    for pod, c in replicas.items():
        assert c.decrypt(ct_b) == plain_b, f"{pod} no longer decrypts subject B after A's erasure"
        c.close()
    print(
        "test-k8s: ok: the Service refuses the erased subject (decrypt and encrypt); the other subject decrypts everywhere"
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","), sys.argv[3], float(sys.argv[4]))
