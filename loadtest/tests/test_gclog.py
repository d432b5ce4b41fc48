"""GC pauses per run from gc.log by the run's time window (no server): a long pause before the run is not the
run's maximum, as Micrometer's decaying _max made it in every run that followed it."""

import sys
import tempfile
import unittest
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt.campaign import runner  # noqa: E402
from lt.campaign.figures import RunFigures  # noqa: E402
from lt.measure import gclog  # noqa: E402

LOG = """\
[2026-11-24T11:36:48.996+0000][0.217s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)
[2026-11-24T11:36:49.002+0000][0.223s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 17M->5M(384M) 65.000ms
[2026-11-24T11:37:10.100+0000][21.3s][info][gc,heap     ] GC(1) Eden regions: 10->0(12)
[2026-11-24T11:37:10.101+0000][21.3s][info][gc          ] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 90M->6M(384M) 2.500ms
[2026-11-24T11:37:15.000+0000][26.2s][info][gc          ] GC(2) Pause Remark 50M->50M(384M) 1.250ms
[2026-11-24T11:37:40.000+0000][51.2s][info][gc          ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 90M->6M(384M) 9.000ms
"""


def at(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z").timestamp()


class GcLogTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = Path(self.dir.name) / "gc.log"
        self.log.write_text(LOG)

    def tearDown(self):
        self.dir.cleanup()

    def test_only_the_pauses_within_the_window(self):
        p = gclog.pauses(self.log, at("2026-11-24T11:37:00+0000"), at("2026-11-24T11:37:30+0000"))
        self.assertEqual((p.count, p.total_ms, p.max_ms), (2, 3.75, 2.5))

    def test_a_window_without_pauses_has_a_zero_maximum(self):
        p = gclog.pauses(self.log, at("2026-11-24T11:37:20+0000"), at("2026-11-24T11:37:30+0000"))
        self.assertEqual((p.count, p.max_ms), (0, 0.0))

    def test_no_log_gives_none_and_keeps_micrometers_figure(self):
        self.assertIsNone(gclog.pauses(Path(self.dir.name) / "missing.log", 0, 1))
        row = RunFigures(
            family="f",
            name="n",
            tags={},
            items_per_call=1,
            concurrency=1,
            connections=1,
            valid=True,
            gc_pause_max_ms=65.0,
        )
        self.assertIs(runner.with_logged_pauses(row, None), row)

    def test_the_logged_maximum_replaces_the_decaying_one(self):
        row = RunFigures(
            family="f",
            name="n",
            tags={},
            items_per_call=1,
            concurrency=1,
            connections=1,
            valid=True,
            gc_pause_max_ms=65.0,
        )
        logged = gclog.pauses(self.log, at("2026-11-24T11:37:00+0000"), at("2026-11-24T11:37:30+0000"))
        replaced = runner.with_logged_pauses(row, logged)
        self.assertEqual((replaced.gc_pause_max_ms, replaced.gc_pause_max_source), (2.5, "gc.log"))


if __name__ == "__main__":
    unittest.main()
