"""Runs one ghz config and measures ghz's own CPU time (from wait4's rusage) and wall time."""

import json
import os
import subprocess
import tempfile
from pathlib import Path

from .. import tools
from ..servers.process import run_bounded
from .grpcurl import TOKEN_ENV

BASE = {
    "proto": "cipherd/v1/crypto_service.proto",
    "insecure": True,
    "format": "json",
    "connections": 1,
    "duration-stop": "ignore",  # calls in flight at the end are neither counted nor errors
    "timeout": "20s",
    "connect-timeout": "10s",
    "disable-template-functions": True,
    "disable-template-data": True,
}


def config(run_ghz: dict, target: str, duration_s: float, skip_first: int, output: Path, name: str, tags: dict) -> dict:
    cfg = {**BASE, **run_ghz}
    cfg.update(
        {
            "import-paths": [str(tools.REPO / "proto")],
            "host": target,
            "duration": f"{duration_s:g}s",
            "skipFirst": skip_first,
            "output": str(output),
            "name": name,
            "tags": tags,
        }
    )
    return cfg


def run(ghz: str, cfg: dict, config_path: Path, duration_s: float) -> dict:
    """Runs ghz on cfg (written to config_path); returns ghz's JSON report plus client facts."""
    token = os.environ.get(TOKEN_ENV)
    if token:
        cfg = {**cfg, "metadata": {**cfg.get("metadata", {}), "authorization": "Bearer <CIPHERD_TOKEN>"}}
    config_path.write_text(json.dumps(cfg, indent=1))  # kept with the results: never the token itself
    stderr_path = config_path.with_suffix(".stderr")
    with tempfile.TemporaryDirectory(prefix="lt-ghz-") as tmp, open(stderr_path, "w") as err:
        used = config_path
        if token:
            used = Path(tmp) / "config.json"
            used.touch(mode=0o600)
            used.write_text(json.dumps({**cfg, "metadata": {**cfg["metadata"], "authorization": f"Bearer {token}"}}))
        # bounded even if ghz hangs
        run = run_bounded([ghz, "--config", str(used)], subprocess.DEVNULL, err, duration_s + 120)
    code, wall = run.exit_code, run.wall_s
    out = Path(cfg["output"])
    if code != 0 or not out.exists():
        msg = stderr_path.read_text().strip()[-500:]
        return {"failed": f"ghz exited {code}: {msg}", "client": {"wall_s": wall}}
    report = json.loads(out.read_text())
    report["client"] = {"wall_s": wall, "cpu_s": run.cpu_s, "max_rss_kib": run.max_rss_kib}
    return report
