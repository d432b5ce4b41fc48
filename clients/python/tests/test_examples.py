"""The README's migration example runs as printed: a MySQL-style export rewrapped into cipherd through the
real server, with its damaged row reported alone, and the README holds the script verbatim."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

from mysql_sample_export import DAMAGED_ROW, sample_secret

import cipherd
from server import RunningServer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
README = Path(__file__).resolve().parents[1] / "README.md"


def _run(script: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_migrating_a_mysql_column_rewraps_every_row_but_the_damaged_one(
    plain_server: RunningServer, tmp_path: Path
) -> None:
    export, migrated = str(tmp_path / "column.csv"), str(tmp_path / "column.cipherd.csv")
    assert _run("mysql_sample_export.py", "300", export).returncode == 0
    env = {
        "MYSQL_AES_KEY": "1234567890",
        "CIPHERD_TARGET": plain_server.target,
        "PYTHONPATH": str(Path(cipherd.__file__).parents[1]),
    }
    run = _run("migrate_mysql_column.py", export, migrated, env=env)
    assert run.returncode == 1, run.stderr
    assert f"row {DAMAGED_ROW}: DecryptionFailedError: decryption failed" in run.stderr
    assert "rewrapped 299 of 300 rows into customers (v1, gcm)" in run.stdout
    assert "verified 299 of 299 new ciphertexts" in run.stdout
    assert "1234567890" not in run.stdout + run.stderr

    with open(migrated, newline="") as f:
        rows = list(csv.reader(f))
    assert [row_id for row_id, _ in rows] == [str(i) for i in range(1, 301) if i != DAMAGED_ROW]
    with cipherd.Client(plain_server.target) as c:
        texts = dict(rows)
        assert c.decrypt(texts["1"], context=b"customers.secret/1") == b"HELLO"
        assert c.decrypt(texts["250"], context=b"customers.secret/250") == sample_secret(250)
        rerun = _run("migrate_mysql_column.py", export, migrated, env=env)
        assert "imported" not in rerun.stdout, "a second run imported the key string again"
        assert len(c.get_key("customers-mysql").versions) == 1


def test_the_readme_prints_the_migration_script_as_it_is() -> None:
    script = (EXAMPLES / "migrate_mysql_column.py").read_text()
    assert script in README.read_text(), "README.md's copy of examples/migrate_mysql_column.py is stale"
