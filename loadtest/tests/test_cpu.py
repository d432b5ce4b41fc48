"""lt/measure/cpu.py: a server's CPU by kind of thread, from /proc (this very process's threads)."""

import os
import sys
import threading
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt.measure import cpu  # noqa: E402
from lt.sidebyside import runner  # noqa: E402


class ThreadCpuTest(unittest.TestCase):
    def test_a_threads_kind_is_its_name_without_its_sibling_number(self):
        self.assertEqual(cpu.thread_kind("GC Thread#0"), "GC Thread")
        self.assertEqual(cpu.thread_kind("grpc-default-worker-ELG-3-2"), "grpc-default-worker-ELG")
        self.assertEqual(cpu.thread_kind("C2 CompilerThre"), "C2 CompilerThre")  # cut at 15 bytes by Linux
        self.assertEqual(cpu.thread_kind("G1 Refine#1"), "G1 Refine")
        self.assertEqual(cpu.thread_kind("VM Thread"), "VM Thread")

    def test_a_busy_threads_cpu_is_counted_while_it_lives(self):
        stop = threading.Event()

        def spin():
            while not stop.is_set():
                sum(range(10_000))

        before = cpu.thread_cpu_seconds(os.getpid())
        worker = threading.Thread(target=spin)
        worker.start()
        try:
            time.sleep(0.5)
            after = cpu.thread_cpu_seconds(os.getpid())
        finally:
            stop.set()
            worker.join()

        # half a second of a spinning thread (the GIL shared with this one, which sleeps)
        self.assertGreater(sum(after.values()) - sum(before.values()), 0.2)
        self.assertTrue(all(v >= 0 for v in after.values()))

    def test_a_runs_thread_deltas_keep_the_kinds_that_spent_any(self):
        spent = runner.thread_deltas(
            {"grpc-default-wo": 10.0, "C2 CompilerThre": 1.0, "VM Thread": 0.5},
            {"grpc-default-wo": 12.5, "C2 CompilerThre": 1.25, "VM Thread": 0.5, "BatchSpanProces": 0.1},
        )
        self.assertEqual(spent, {"grpc-default-wo": 2.5, "C2 CompilerThre": 0.25, "BatchSpanProces": 0.1})
        self.assertEqual(list(spent), ["grpc-default-wo", "C2 CompilerThre", "BatchSpanProces"])


if __name__ == "__main__":
    unittest.main()
