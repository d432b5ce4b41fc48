"""Decrypt latency of a cold subject (issue 32): after the side-by-side's rounds, cipherd gets more subjects
than its --subject-cache-size, one ciphertext each (EncryptBatch, 256 subjects a call), then one unary Decrypt
per subject in a shuffled order, one call at a time, so nearly every one misses the subject-key cache and
reads the subject store; then as many Decrypts of one warm subject's ciphertext by the same grpcio client,
so the difference between the two is the store's. Bounded: one call at a time, each with a 30 s deadline."""

import random
import time
from collections import Counter
from dataclasses import dataclass

from ..rows import JsonRow
from . import bodies
from .grpc_client import Client
from .h2load import percentile
from .protos import SERVICE, pb
from .shapes import ENC_KEY

BATCH = 256


@dataclass(frozen=True)
class ColdSubjects(JsonRow):
    subjects: int
    cache_size: int
    cold_p50_ms: float | None  # None when no call answered OK
    cold_p99_ms: float | None
    warm_p50_ms: float | None
    warm_p99_ms: float | None
    errors: int  # calls that did not answer OK (none are counted in the percentiles)
    error_codes: dict[str, int] | None = None  # those calls by gRPC status


def subjects(count: int) -> list[str]:
    return [f"sbs-cold-{i}" for i in range(count)]


def latencies_ms(client: Client, messages: list[bytes], errors: Counter) -> list[float]:
    """Each unary Decrypt's latency in ms, one at a time; the calls that did not answer OK are counted in
    `errors` by status."""
    took = []
    for m in messages:
        t0 = time.perf_counter()
        code, _, _ = client.call(f"{SERVICE}/Decrypt", m)
        if code == "OK":
            took.append((time.perf_counter() - t0) * 1000)
        else:
            errors[code] += 1
    return took


def measure(target: str, count: int, cache_size: int, plaintext: bytes) -> ColdSubjects:
    cs = pb()[0]
    ciphertexts = []
    with Client(target) as client:
        ids = subjects(count)
        for at in range(0, count, BATCH):
            body = bodies.encrypt_batch_subjects(ENC_KEY, plaintext, ids[at : at + BATCH])
            resp, _ = client.must(f"{SERVICE}/EncryptBatch", body, cs.EncryptBatchResponse)
            failed = [r for r in resp.results if r.HasField("error")]
            if failed:
                raise SystemExit(f"loadtest: cold subjects: {len(failed)} items failed: {failed[0].error.message}")
            ciphertexts += [r.ciphertext for r in resp.results]
        random.Random(count).shuffle(ciphertexts)  # in no order the cache could have kept
        errors: Counter = Counter()
        cold = latencies_ms(client, [bodies.decrypt(c) for c in ciphertexts], errors)
        warm = latencies_ms(client, [bodies.decrypt(ciphertexts[0])] * count, errors)
    return ColdSubjects(
        subjects=count,
        cache_size=cache_size,
        cold_p50_ms=percentile(cold, 50),
        cold_p99_ms=percentile(cold, 99),
        warm_p50_ms=percentile(warm, 50),
        warm_p99_ms=percentile(warm, 99),
        errors=sum(errors.values()),
        error_codes=dict(errors),
    )


def line(c: ColdSubjects) -> str:
    """The result as the runner prints it and the report shows it."""
    if None in (c.cold_p99_ms, c.warm_p99_ms):
        return f"Decrypt of a cold subject: not measured, {c.errors} of {2 * c.subjects:,} calls failed ({codes(c)})"
    return (
        f"Decrypt of a cold subject ({c.subjects:,} subjects, subject-key cache {c.cache_size:,}, one call at a "
        f"time): p50 {c.cold_p50_ms:.2f} ms, p99 {c.cold_p99_ms:.2f} ms; of a warm subject, same client: "
        f"p50 {c.warm_p50_ms:.2f} ms, p99 {c.warm_p99_ms:.2f} ms"
        + (f"; {c.errors} calls failed ({codes(c)})" if c.errors else "")
    )


def codes(c: ColdSubjects) -> str:
    return ", ".join(f"{code} {n}" for code, n in sorted((c.error_codes or {}).items())) or "status not recorded"
