"""--sbs-fresh-servers: each round after the first measures new JVMs (restarted on the same ports, data dir
and keys, their recordings in new files that --jfr-shapes reads together), and the report says so."""

import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import options  # noqa: E402
from lt.report import jfr_shapes  # noqa: E402
from lt.servers.cipherd import Cipherd  # noqa: E402
from lt.sidebyside import runner  # noqa: E402
from lt.sidebyside.lineup import BASELINE, CIPHERD  # noqa: E402
from lt.sidebyside.shapes import SHAPES  # noqa: E402
from lt.sidebyside.target import Target  # noqa: E402


class FreshServersTest(unittest.TestCase):
    def test_each_start_records_to_files_of_its_own(self):
        with tempfile.TemporaryDirectory() as d:
            server = Cipherd(Path("java"), Path("a.jar"), Path(d), ["-Xmx1g"])
            try:
                first = " ".join(server.jvm_flags())
                server.starts = 2  # as after one restart
                second = " ".join(server.jvm_flags())
            finally:
                server.tmp.cleanup()
        self.assertIn(f"filename={d}/cipherd.jfr,", first)
        self.assertIn(f"file={d}/gc.log:", first)
        self.assertIn(f"filename={d}/cipherd-2.jfr,", second)
        self.assertIn(f"file={d}/gc-2.log:", second)
        self.assertTrue(second.startswith("-Xmx1g "))

    def test_the_jfr_report_reads_every_recording_of_a_target_in_the_order_made(self):
        with tempfile.TemporaryDirectory() as d:
            side = Path(d) / "sidebyside"
            (side / BASELINE).mkdir(parents=True)
            for name in ("cipherd-10.jfr", "cipherd.jfr", "cipherd-2.jfr", "gc.log"):
                (side / name).write_text("")
            (side / BASELINE / "cipherd.jfr").write_text("")

            mine = [p.name for p in jfr_shapes.recordings(Path(d), CIPHERD)]
            baseline = [p.name for p in jfr_shapes.recordings(Path(d), BASELINE)]

        self.assertEqual(mine, ["cipherd.jfr", "cipherd-2.jfr", "cipherd-10.jfr"])
        self.assertEqual(baseline, ["cipherd.jfr"])

    def test_a_refresh_restarts_and_warms_each_restartable_target_only(self):
        done = []

        def target(name, restartable):
            restart = (lambda: done.append(f"restart {name}")) if restartable else None
            return Target(name, {}, lambda: 0.0, lambda: None, lambda b, s: None, restart)

        warmed = []
        ctx = SimpleNamespace(args=SimpleNamespace(sbs_shapes=SHAPES[:1], sbs_warmup=0))
        original = runner.warm
        runner.warm = lambda c, t: warmed.append(t.name)
        try:
            runner.refresh(ctx, [target("echo", False), target(CIPHERD, True), target(BASELINE, True)])
        finally:
            runner.warm = original

        self.assertEqual(done, [f"restart {CIPHERD}", f"restart {BASELINE}"])
        self.assertEqual(warmed, [CIPHERD, BASELINE])

    def test_the_flag_and_the_reports_note(self):
        self.assertTrue(options.parse(["--sbs-rounds", "5", "--sbs-fresh-servers"]).sbs_fresh_servers)
        self.assertFalse(options.parse([]).sbs_fresh_servers)
        self.assertIn(
            "cipherd and cipherd-baseline were restarted and warmed up again",
            runner.notes((CIPHERD, BASELINE), fresh=True)[-1],
        )
        self.assertNotIn("restarted", runner.notes((CIPHERD, BASELINE))[-1])


if __name__ == "__main__":
    unittest.main()
