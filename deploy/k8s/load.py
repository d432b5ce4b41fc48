"""A bounded Encrypt/Decrypt stream against a cipherd Service, for deploy/k8s/test-k8s.

  load.py run TARGETS KEY SECONDS OUT.json [SUBJECTS]
                                              Encrypt then Decrypt (round trip checked) in 4 threads until
                                              SECONDS pass, 100000 calls, or OUT.json.stop exists; every
                                              acknowledged ciphertext is kept (OUT.json). UNAVAILABLE is
                                              retried (at most 8 times per call, backing off), counted; any
                                              other error counts as failed. TARGETS: HOST:PORT[,HOST:PORT...],
                                              the threads take them in turn (a Service, and each pod); each
                                              thread has its own connection; calls ok are counted per target.
                                              With SUBJECTS > 0, every other round trip is subject-bound, for
                                              one of SUBJECTS subjects (k8s-load-0...; the first use of each
                                              creates its key), counted apart.
  load.py verify TARGET IN.json               decrypts every kept ciphertext again; exits 1 on any mismatch.
The bearer token comes from CIPHERD_TOKEN; with CIPHERD_CA (a PEM file) the calls use TLS, trusting that CA
and checking the server's certificate against CIPHERD_SERVER_NAME (the targets are addresses). Never prints
plaintexts or ciphertexts.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import threading
import time
from pathlib import Path

import cipherd
from cipherd.errors import UnavailableError

MAX_CALLS = 100000
THREADS = 4
RETRIES = 8


def client(
    target: str, index: int = 0, token: str | None = None
) -> cipherd.Client:  # token: CIPHERD_TOKEN's by default
    # gRPC in one process shares a connection between channels to one target with the same arguments, so
    # every thread would reach the same pod through the Service. A message limit that differs per thread
    # (all far above these 48-byte calls) gives each its own connection, which kube-proxy places anew.
    ca = os.environ.get("CIPHERD_CA")
    tls = cipherd.TlsConfig(ca=Path(ca).read_bytes(), server_name=os.environ.get("CIPHERD_SERVER_NAME")) if ca else None
    return cipherd.Client(
        target,
        tls=tls,
        insecure=tls is None,
        token=token or os.environ.get("CIPHERD_TOKEN"),
        timeout=10.0,
        max_message_bytes=(8 << 20) + index,
    )


class Counts:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent = self.ok = self.retried = self.failed = self.subject_ok = 0
        self.errors: dict[str, int] = {}
        self.ok_by_target: dict[str, int] = {}
        self.kept: list[tuple[str, str]] = []  # (ciphertext, plaintext hex), only in OUT.json


def call(counts: Counts, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    for attempt in range(RETRIES + 1):
        try:
            return fn(*args, **kwargs)
        except UnavailableError:
            if attempt == RETRIES:
                raise
            with counts.lock:
                counts.retried += 1
            time.sleep(min(0.05 * 2**attempt, 1.0))
    raise AssertionError("unreachable")


def run(targets: str, key: str, seconds: float, out: str, subjects: int = 0) -> None:
    counts = Counts()
    deadline = time.monotonic() + seconds
    each = targets.split(",")
    counts.ok_by_target = {t: 0 for t in each}

    def worker(target: str, index: int) -> None:
        round_trips = 0
        with client(target, index) as c:
            while time.monotonic() < deadline and not os.path.exists(out + ".stop"):
                round_trips += 1
                subject = f"k8s-load-{secrets.randbelow(subjects)}" if subjects and round_trips % 2 == 0 else ""
                with counts.lock:
                    if counts.sent >= MAX_CALLS:
                        return
                    counts.sent += 2
                plaintext = secrets.token_bytes(48)
                try:
                    ct = call(counts, c.encrypt, key, plaintext, subject=subject)
                    back = call(counts, c.decrypt, ct)
                    if back != plaintext:
                        raise RuntimeError("round trip returned other bytes")
                    with counts.lock:
                        counts.ok += 2
                        counts.ok_by_target[target] += 2
                        counts.subject_ok += 2 if subject else 0
                        counts.kept.append((ct, plaintext.hex()))
                except Exception as e:  # noqa: BLE001 - every failure is counted by type
                    with counts.lock:
                        counts.failed += 1
                        name = type(e).__name__
                        counts.errors[name] = counts.errors.get(name, 0) + 1
                time.sleep(0.02)

    threads = [threading.Thread(target=worker, args=(each[i % len(each)], i)) for i in range(max(THREADS, len(each)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(out, "w") as f:
        json.dump(
            {
                "sent": counts.sent,
                "ok": counts.ok,
                "retried": counts.retried,
                "failed_round_trips": counts.failed,
                "errors": counts.errors,
                "ok_by_target": counts.ok_by_target,
                "subject_ok": counts.subject_ok,
                "kept": counts.kept,
            },
            f,
        )
    print(
        json.dumps(
            {
                "calls_sent": counts.sent,
                "calls_ok": counts.ok,
                "unavailable_retried": counts.retried,
                "failed_round_trips": counts.failed,
                "errors": counts.errors,
                "ok_by_target": counts.ok_by_target,
                "subject_calls_ok": counts.subject_ok,
                "ciphertexts_kept": len(counts.kept),
            }
        )
    )


def verify(target: str, path: str) -> None:  # one target
    kept = json.loads(Path(path).read_text())["kept"]
    bad = 0
    with client(target) as c:
        for ct, pt in kept:
            if c.decrypt(ct) != bytes.fromhex(pt):
                bad += 1
    print(json.dumps({"verified": len(kept), "mismatched": bad}))
    if bad or not kept:
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5], int(sys.argv[6]) if len(sys.argv) > 6 else 0)
    else:
        verify(sys.argv[2], sys.argv[3])
