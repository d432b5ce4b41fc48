"""Tests of lt/sanity.py and lt/presets.py: the check `make test` relies on must catch broken results."""

import dataclasses
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import options, presets, sanity  # noqa: E402
from lt.campaign import families  # noqa: E402
from lt.campaign.figures import RunFigures  # noqa: E402

HOST = {"arch": "x86_64", "cores": 2, "jdk": "openjdk 25", "cipherd_commit": "abc123", "cpu_model": "cpu"}
GOOD_RUN = RunFigures(
    family="unary",
    name="encrypt-gcm-100",
    tags={},
    items_per_call=1,
    concurrency=16,
    connections=1,
    valid=True,
    count=1000,
    rps=500.0,
    server_calls=1040,
    p50_ms=1.2,
    p99_ms=4.5,
    alloc_per_item=2048.0,
    gc_count=3,
    gc_pause_total_ms=4.0,
    ghz_cores=0.8,
    server_cores=0.9,
)


class SanityTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = Path(self.dir.name)
        (self.out / "chart.png").write_bytes(sanity.PNG_MAGIC + b"rest")
        (self.out / "report.md").write_text("| encrypt-gcm-100 | 500 |\n\n![chart](chart.png)\n")

    def tearDown(self):
        self.dir.cleanup()

    def summary(self, **changes):
        return {"host": HOST, "runs": [dataclasses.replace(GOOD_RUN, **changes)]}

    def test_plausible_result_has_no_problems(self):
        self.assertEqual(sanity.problems(self.out, self.summary(), ["encrypt-gcm-100"]), [])

    def test_each_implausible_figure_is_named(self):
        cases = {
            "not valid": {"valid": False, "problem": "3 gRPC errors"},
            "no calls measured": {"count": 0},
            "fewer than ghz": {"server_calls": 10},
            "latency out of bounds": {"p50_ms": 9.0, "p99_ms": 4.0},
            "allocation per item out of bounds": {"alloc_per_item": None},
            "GC figures": {"gc_count": -1},
            "server_cores out of bounds": {"server_cores": 7.5},
        }
        for expected, change in cases.items():
            with self.subTest(expected):
                found = sanity.problems(self.out, self.summary(**change), ["encrypt-gcm-100"])
                self.assertTrue(any(expected in p for p in found), found)

    def test_missing_run_report_and_chart_are_caught(self):
        self.assertIn(
            "run decrypt-gcm-100 is missing from summary.json",
            sanity.problems(self.out, self.summary(), ["encrypt-gcm-100", "decrypt-gcm-100"]),
        )
        (self.out / "chart.png").write_bytes(b"not a png")
        self.assertIn("chart chart.png is linked but is not a PNG", sanity.problems(self.out, self.summary(), []))
        (self.out / "report.md").unlink()
        self.assertIn("report.md was not written", sanity.problems(self.out, self.summary(), []))

    def test_a_side_by_side_that_should_have_run_is_required(self):
        self.assertIn(
            "the side-by-side did not run", sanity.problems(self.out, self.summary(), [], side_by_side_expected=True)
        )

    def test_host_facts_are_required(self):
        summary = self.summary()
        summary["host"] = {**HOST, "arch": ""}
        self.assertIn("host.json lacks arch", sanity.problems(self.out, summary, []))


class PresetTest(unittest.TestCase):
    def test_smoke_selects_one_run_of_each_kind_and_flags_win(self):
        args = options.parse(["--preset", "smoke", "--duration", "7"])
        self.assertEqual(args.duration, 7.0)
        self.assertEqual(args.warmup, presets.PRESETS["smoke"]["warmup"])
        selected = [r.name for f in families.select(args.campaigns, args.only) for r in f.runs]
        self.assertEqual(
            sorted(selected),
            sorted(
                [
                    "encrypt-gcm-100",
                    "decrypt-gcm-100",
                    "encrypt-batch-gcm-100-x256",
                    "reencrypt-batch-gcm-100-x256",
                    "reencrypt-stream-gcm-100-x256",
                ]
            ),
        )

    def test_stream_run_counts_messages_per_call(self):
        run = families.load("stream").runs[0]
        self.assertEqual(run.items_per_call, 256)


if __name__ == "__main__":
    unittest.main()
