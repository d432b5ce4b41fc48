"""Typed rows (lt/rows.py, RunFigures, SbsRow, Goal): made in one place, written to JSON with the field
names older results have, and read back, older files included."""

import dataclasses
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import rows  # noqa: E402
from lt.campaign.figures import RunFigures  # noqa: E402
from lt.report.summary import load_summary  # noqa: E402
from lt.sidebyside import goals, shapes  # noqa: E402
from lt.sidebyside.rounds import median_rounds  # noqa: E402
from lt.sidebyside.row import SbsRow, row_figures  # noqa: E402
from lt.sidebyside.target import ServerFigures  # noqa: E402

# the keys summary.json's rows had when they were dicts (before the typed rows)
GHZ_KEYS = {
    "tool",
    "family",
    "name",
    "tags",
    "items_per_call",
    "concurrency",
    "connections",
    "count",
    "rps",
    "items_per_s",
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "mean_ms",
    "grpc_errors",
    "item_errors",
    "status_codes",
    "error_distribution",
    "server_calls",
    "gc_count",
    "gc_pause_total_ms",
    "gc_pause_max_ms",
    "gc_pause_max_source",
    "allocated_bytes",
    "alloc_per_call",
    "alloc_per_item",
    "ghz_cores",
    "server_cores",
    "other_cores",
    "wall_s",
    "valid",
    "client_bound",
    "box_saturated",
}
SBS_KEYS = {
    "tool",
    "target",
    "shape",
    "method",
    "items_per_call",
    "clients",
    "rps",
    "items_per_s",
    "requests",
    "http_status",
    "log_statuses",
    "mean_ms",
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "max_ms",
    "h2load_failed",
    "http_non_2xx",
    "server_calls",
    "server_non_ok",
    "cancelled_at_stop",
    "item_errors",
    "allocated_bytes",
    "alloc_per_call",
    "alloc_per_item",
    "h2load_cpu_s",
    "server_cpu_s",
    "h2load_cores",
    "server_cores",
    "other_cores",
    "wall_s",
    "valid",
    "client_bound",
    "box_saturated",
    "round",
    "command",
}
STREAM = next(s for s in shapes.SHAPES if s.streaming)


def ghz_row(**changes) -> RunFigures:
    row = RunFigures(
        family="unary",
        name="encrypt-gcm-100",
        tags={"op": "Encrypt"},
        items_per_call=1,
        concurrency=16,
        connections=1,
        valid=True,
        count=100,
        rps=50.0,
        items_per_s=50.0,
        p99_ms=2.5,
        status_codes={"OK": 100},
        gc_count=1.0,
        ghz_cores=0.5,
        server_cores=0.7,
    )
    return dataclasses.replace(row, **changes)


def sbs_row(shape=STREAM, rps=100.0, **kw) -> SbsRow:
    h2 = {
        "rps": rps,
        "requests": {"succeeded": 1000, "failed": 0, "errored": 0, "timeout": 0},
        "status": {"2xx": 1000},
        "time_ms": {"mean": 1.0},
        "client": {"wall_s": 10.0, "cpu_s": 1.0},
    }
    return row_figures(
        "cipherd",
        shape,
        h2,
        {"p50_ms": 1.0, "p99_ms": 3.0},
        {"200": 1000},
        8.0,
        0.0,
        2,
        ServerFigures(calls=1100, allocated_bytes=1100 * 256 * 90.0),
        **kw,
    )


class RunFiguresJsonTest(unittest.TestCase):
    def test_fields_keep_their_json_names(self):
        self.assertEqual(set(ghz_row().to_json()), GHZ_KEYS)
        self.assertEqual(set(ghz_row(valid=False, problem="2 gRPC errors").to_json()), GHZ_KEYS | {"problem"})

    def test_round_trip(self):
        row = ghz_row()
        self.assertEqual(RunFigures.from_json(json.loads(rows.dumps(row))), row)

    def test_an_older_failed_row_reads_back_without_figures(self):
        old = {
            "tool": "ghz",
            "family": "batch",
            "name": "encrypt-batch-gcm-100-x16",
            "tags": {},
            "items_per_call": 16,
            "concurrency": 8,
            "connections": 1,
            "valid": False,
            "problem": "ghz exited 1: x",
            "unknown_later": 1,
        }
        row = RunFigures.from_json(old)
        self.assertFalse(row.measured)
        self.assertEqual((row.name, row.problem, row.rps), ("encrypt-batch-gcm-100-x16", "ghz exited 1: x", None))

    def test_rows_are_immutable(self):
        with self.assertRaises(dataclasses.FrozenInstanceError):
            ghz_row().rps = 1.0


class SbsRowJsonTest(unittest.TestCase):
    def test_a_stream_row_counts_streams_and_messages(self):
        r = sbs_row(round_no=2, command="h2load -c 16 ...")
        self.assertTrue(r.valid, r.problem)
        self.assertEqual((r.method, r.items_per_call, r.clients), ("ReEncryptStream", 256, 16))
        self.assertEqual(r.items_per_s, 25600.0)
        self.assertEqual(r.alloc_per_item, 90.0)
        self.assertEqual((r.round, r.command, r.label), (2, "h2load -c 16 ...", "cipherd-reencrypt-stream-256"))

    def test_fields_keep_their_json_names(self):
        self.assertEqual(set(sbs_row().to_json()), SBS_KEYS)
        picked = median_rounds([sbs_row(round_no=1), sbs_row(rps=120.0, round_no=2), sbs_row(rps=90.0, round_no=3)])
        self.assertEqual(set(picked[0].to_json()), SBS_KEYS | {"rounds"})
        back = picked[0].to_json()["rounds"]
        us = back.pop("server_us_per_item")
        self.assertEqual(back, {"count": 3, "valid": 3, "items_per_s": [25600.0, 30720.0, 23040.0], "invalid": []})
        # The same server CPU and calls in each round (the rows differ in h2load's rate only).
        self.assertEqual(len(us), 3)
        self.assertEqual(len(set(us)), 1)
        self.assertGreater(us[0], 0)

    def test_round_trip_with_rounds(self):
        (picked,) = median_rounds([sbs_row(round_no=1), sbs_row(rps=120.0, round_no=2)])
        self.assertEqual(SbsRow.from_json(json.loads(rows.dumps(picked))), picked)

    def test_summary_file_reads_back_typed(self):
        run, sbs = ghz_row(), sbs_row()
        summary = {
            "host": {"arch": "x86_64"},
            "runs": [run],
            "side_by_side": {"rows": [sbs], "shapes": list(shapes.SHAPES), "targets": goals.check_goals([sbs])},
        }
        with tempfile.TemporaryDirectory() as d:
            rows.write(Path(d) / "summary.json", summary)
            raw = json.loads((Path(d) / "summary.json").read_text())
            back = load_summary(Path(d))
        self.assertEqual(raw["side_by_side"]["shapes"][5]["vault_op"], None)
        self.assertEqual(raw["side_by_side"]["targets"][0]["met"], None)
        self.assertEqual(back["runs"], [run])
        self.assertEqual(back["side_by_side"]["rows"], [sbs])


if __name__ == "__main__":
    unittest.main()
