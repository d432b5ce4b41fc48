"""Tests of lt/servers/process.py with real child processes (Python itself, no servers, no network)."""

import sys
import tempfile
import unittest
import urllib.error
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt.servers.process import ManagedProcess, run_bounded  # noqa: E402


class ManagedProcessTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = Path(self.dir.name) / "p.log"

    def tearDown(self):
        self.dir.cleanup()

    def test_ready_process_is_measured_and_stopped_by_sigterm(self):
        p = ManagedProcess("sleeper", self.log)
        p.launch([sys.executable, "-c", "print('up', flush=True); import time; time.sleep(60)"])
        polls = []

        def ready():
            polls.append(1)
            if len(polls) < 2:
                raise urllib.error.URLError("not listening yet")  # what a probe sees before the port opens
            return "up" in self.log.read_text()

        p.wait_ready(ready, timeout=20)
        self.assertTrue(p.running)
        self.assertGreaterEqual(p.cpu_seconds(), 0.0)
        p.stop(grace=10)
        self.assertFalse(p.running)
        self.assertEqual(p.proc.returncode, -15)

    def test_a_process_launched_again_appends_to_its_log(self):
        p = ManagedProcess("twice", self.log)
        for word in ("first", "second"):
            p.launch([sys.executable, "-c", f"print('{word}', flush=True)"])
            p.proc.wait(20)
            p.stop()
        self.assertEqual(self.log.read_text().split(), ["first", "second"])

    def test_process_that_dies_at_start_names_its_log(self):
        p = ManagedProcess("crasher", self.log)
        p.launch([sys.executable, "-c", "raise SystemExit(3)"])
        with self.assertRaises(SystemExit) as e:
            p.wait_ready(lambda: False, timeout=20)
        self.assertIn("crasher exited with 3", str(e.exception))
        self.assertIn(str(self.log), str(e.exception))

    def test_process_never_ready_is_stopped(self):
        p = ManagedProcess("slow", self.log)
        p.launch([sys.executable, "-c", "import time; time.sleep(60)"])
        with self.assertRaises(SystemExit) as e:
            p.wait_ready(lambda: False, timeout=1)
        self.assertIn("slow not ready within 1s", str(e.exception))
        self.assertFalse(p.running)


class RunBoundedTest(unittest.TestCase):
    def test_client_that_ends_reports_its_exit_code_and_cpu(self):
        run = run_bounded([sys.executable, "-c", "sum(range(10**6)); raise SystemExit(4)"], None, None, 30)
        self.assertEqual((run.exit_code, run.killed), (4, False))
        self.assertGreater(run.cpu_s, 0.0)
        self.assertGreater(run.max_rss_kib, 0)

    def test_client_past_its_bound_is_killed(self):
        run = run_bounded([sys.executable, "-c", "import time; time.sleep(60)"], None, None, 0.5)
        self.assertTrue(run.killed)
        self.assertEqual(run.exit_code, -9)
        self.assertLess(run.wall_s, 30)


if __name__ == "__main__":
    unittest.main()
