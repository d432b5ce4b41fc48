"""Bootstraps the runner's venv once, cached, and re-execs inside it: matplotlib for the charts, grpcio
and grpcio-tools for the side-by-side (request bodies from the real protos, one real gRPC call per body).

The venv's directory is named after a hash of its requirements, so two checkouts that want different
packages (two branches, a CI cache) each keep their own instead of rebuilding one in turn."""

import hashlib
import os
import subprocess
import sys
import venv as stdlib_venv
from pathlib import Path

CACHE = Path(os.environ.get("CIPHERD_CACHE", Path.home() / ".cache" / "cipherd"))
REQUIREMENTS = ["matplotlib>=3.8,<4", "grpcio>=1.60,<2", "grpcio-tools>=1.60,<2"]
VENV = CACHE / f"venv-loadtest-{hashlib.sha256(chr(10).join(REQUIREMENTS).encode()).hexdigest()[:10]}"
MARKER = VENV / ".cipherd-requirements"


def _python() -> Path:
    return VENV / "bin" / "python"


def ensure() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - run by whatever python3 the caller has
        sys.exit(f"loadtest: Python 3.11+ is needed, this is {sys.version.split()[0]}")
    wanted = "\n".join(sorted(REQUIREMENTS))
    if not (MARKER.exists() and MARKER.read_text() == wanted and _python().exists()):
        print(f"loadtest: preparing {VENV} (once)", file=sys.stderr)
        stdlib_venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        r = subprocess.run([str(_python()), "-m", "pip", "install", "-q", "--disable-pip-version-check", *REQUIREMENTS])
        if r.returncode != 0:
            sys.exit(f"loadtest: pip could not install {REQUIREMENTS} into {VENV}")
        MARKER.write_text(wanted)
    if Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(_python()), [str(_python()), *sys.argv])
