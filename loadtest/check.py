#!/usr/bin/env python3
"""The runner's own unit tests (`make loadtest-check`), run inside the runner's venv so the tests that
build request bodies from the real protos (grpcio-tools) run too instead of being skipped."""

import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from lt import venv  # noqa: E402

venv.ensure()  # re-execs inside the venv when needed

if __name__ == "__main__":
    suite = unittest.defaultTestLoader.discover(str(HERE / "tests"), top_level_dir=str(HERE / "tests"))
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    if result.skipped:
        print(f"loadtest-check: {len(result.skipped)} tests skipped inside the venv, which has every package they need")
        sys.exit(1)
    sys.exit(0 if result.wasSuccessful() else 1)
