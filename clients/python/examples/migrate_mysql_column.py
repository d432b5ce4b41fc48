#!/usr/bin/env python3
r"""Moves a column MySQL encrypted with AES_ENCRYPT(secret, key_str) into cipherd, without the plaintexts
ever leaving the server.

Input: a CSV of `id,HEX(secret)` rows, e.g.
    mysql -B -N -e "SELECT id, HEX(secret) FROM customers" | tr '\t' ',' > column.csv
Output: a CSV of `id,ciphertext` rows, each ciphertext bound to its row (context "customers.secret/<id>"),
to load with UPDATE customers SET secret_v2 = ... WHERE id = ...
The key string comes from $MYSQL_AES_KEY, is folded into its key here and sent once, wrapped for an import job,
as a decrypt-only legacy key.
Usage: MYSQL_AES_KEY=... migrate_mysql_column.py [IN.csv [OUT.csv]]   ($CIPHERD_TARGET, default 127.0.0.1:50051)
Exits 1 if a row failed: the others are migrated, and the failed ids are listed."""

from __future__ import annotations

import contextlib
import csv
import os
import sys
import time
from collections.abc import Iterator
from typing import TextIO

import cipherd
from cipherd import CiphertextItem, LegacyCipher, LegacyCiphertext

LEGACY_KEY = "customers-mysql"  # the imported AES_ENCRYPT key string: decrypts, never encrypts
TARGET_KEY = "customers"  # the cipherd key (gcm) the column moves to


def context(row_id: str) -> bytes:
    """Binds each new ciphertext to its row: swapped between rows, it no longer decrypts."""
    return f"customers.secret/{row_id}".encode()


def ensure_keys(c: cipherd.Client) -> None:
    try:
        c.get_key(LEGACY_KEY)
    except cipherd.NotFoundError:
        key = c.import_key_wrapped(
            LEGACY_KEY, legacy_cipher=LegacyCipher.MYSQL_AES_ECB, passphrase=os.environ["MYSQL_AES_KEY"]
        )
        print(f"imported {LEGACY_KEY} v{key.current_version}: a legacy {LegacyCipher.MYSQL_AES_ECB.value} key")
    with contextlib.suppress(cipherd.AlreadyExistsError):
        c.create_key(TARGET_KEY)


def legacy_rows(source: TextIO) -> Iterator[CiphertextItem]:
    for row_id, hex_value in csv.reader(source):
        yield CiphertextItem(LegacyCiphertext(LEGACY_KEY, hex=hex_value), context=context(row_id), reference=row_id)


def rewrap(c: cipherd.Client, source_path: str, target_path: str) -> tuple[int, list[str]]:
    """Streams every row through one re_encrypt_stream, read and written as the server answers; a broken
    stream resumes after the last row written. Returns how many rows were written and the failed ids."""
    written, failed = 0, list[str]()
    done: str | None = None
    for attempt in range(5):
        try:
            with open(source_path, newline="") as source, open(target_path, "a" if done else "w", newline="") as target:
                out = csv.writer(target)
                for r in c.re_encrypt_stream(legacy_rows(source), key_name=TARGET_KEY, resume_after=done):
                    if r.error is None:
                        out.writerow([r.reference, r.unwrap().ciphertext])
                        written += 1
                    else:  # the error says what failed, never the data
                        print(f"row {r.reference}: {type(r.error).__name__}: {r.error.details}", file=sys.stderr)
                        failed.append(r.reference)
                    done = r.reference
            return written, failed
        except (cipherd.UnavailableError, cipherd.CallCancelledError) as e:
            done = e.last_reference
            print(f"stream broken after row {done}: resuming", file=sys.stderr)
            time.sleep(2**attempt)
    raise SystemExit(f"gave up after row {done}")


def verify(c: cipherd.Client, target_path: str) -> tuple[int, list[str]]:
    """Decrypts every new ciphertext with its row's context (in one stream, the plaintexts dropped)."""
    with open(target_path, newline="") as target:
        items = (CiphertextItem(text, context=context(row_id), reference=row_id) for row_id, text in csv.reader(target))
        results = [(r.reference, r.ok) for r in c.decrypt_stream(items)]
    return sum(ok for _, ok in results), [row_id for row_id, ok in results if not ok]


def main() -> None:
    source_path = sys.argv[1] if len(sys.argv) > 1 else "column.csv"
    target_path = sys.argv[2] if len(sys.argv) > 2 else "column.cipherd.csv"
    with cipherd.Client(os.environ.get("CIPHERD_TARGET", "127.0.0.1:50051")) as c:
        ensure_keys(c)
        started = time.monotonic()
        written, failed = rewrap(c, source_path, target_path)
        target = c.get_key(TARGET_KEY)
        mode = target.version(target.current_version).mode
        print(
            f"rewrapped {written} of {written + len(failed)} rows into {TARGET_KEY} "
            f"(v{target.current_version}, {mode.value if mode else 'legacy'}) "
            f"in {time.monotonic() - started:.1f} s; failed: {', '.join(failed) or 'none'}"
        )
        verified, unreadable = verify(c, target_path)
        print(
            f"verified {verified} of {written} new ciphertexts: each decrypts with its row's context"
            + (f"; NOT: {', '.join(unreadable)}" if unreadable else "")
        )
    if failed or unreadable or verified != written:
        sys.exit(1)


if __name__ == "__main__":
    main()
