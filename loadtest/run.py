#!/usr/bin/env python3
"""cipherd load-test campaigns: `make loadtest LOADTEST_ARGS='...'` runs this file.

Runs ghz campaigns and the h2load side-by-side (Vault Transit, echo ceiling, cipherd) against freshly
started servers, or compares two result folders.
Re-executes itself inside its venv under ~/.cache/cipherd (matplotlib, grpcio, grpcio-tools) first.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lt import venv  # noqa: E402

venv.ensure()  # re-execs inside the venv when needed

from lt import cli  # noqa: E402

if __name__ == "__main__":
    sys.exit(cli.main(sys.argv[1:]))
