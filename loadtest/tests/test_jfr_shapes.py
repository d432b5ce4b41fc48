"""--jfr-shapes: JFR execution samples counted per side-by-side shape, within each run's measured window,
per million items, and CPU-time samples as µs of CPU per item."""

import datetime
import json
import os
import tempfile
import unittest
from pathlib import Path

from lt.report import jfr_shapes

# 2026-11-27 23:00:00 UTC
T0 = datetime.datetime(2026, 11, 27, 23, 0, 0, tzinfo=datetime.UTC).timestamp()


def sample(kind: str, at: float, frames: tuple[str, ...], fields: str) -> str:
    """One sample event of `kind` as `jfr print` writes it (TZ=UTC), its other `fields`, frames from
    the top."""
    stamp = datetime.datetime.fromtimestamp(at, datetime.UTC)
    stack = "".join(f"    {f}(int) line: 1\n" for f in frames)
    return (
        f"{kind} {{\n"
        f"  startTime = {stamp:%H:%M:%S}.{stamp.microsecond // 1000:03d} ({stamp:%Y-%m-%d})\n"
        f"{fields}"
        "  stackTrace = [\n"
        f"{stack}"
        "  ]\n"
        "}\n"
    )


def event(at: float, *frames: str) -> str:
    """One jdk.ExecutionSample."""
    return sample(
        "jdk.ExecutionSample", at, frames, '  sampledThread = "w" (javaThreadId = 1)\n  state = "STATE_RUNNABLE"\n'
    )


def cpu_event(at: float, *frames: str, period_ms: float = 2.0) -> str:
    """One jdk.CPUTimeSample (JDK 25)."""
    return sample(
        "jdk.CPUTimeSample",
        at,
        frames,
        "  failed = false\n"
        f"  samplingPeriod = {period_ms:.2f} ms\n"
        "  biased = false\n"
        '  eventThread = "w" (javaThreadId = 1)\n',
    )


class SamplesTest(unittest.TestCase):
    def test_reads_each_samples_kind_time_and_frames_from_the_top(self):
        text = (
            event(T0 + 1.25, "a.B.top", "a.B.caller")
            + "\n"
            + event(T0 + 2, "c.D.only")
            + cpu_event(T0 + 3, "e.F.native", "e.F.caller")
        )

        got = list(jfr_shapes.samples(text))

        self.assertEqual(len(got), 3)
        self.assertEqual(got[0][0], jfr_shapes.EXECUTION)
        self.assertAlmostEqual(got[0][1], T0 + 1.25, places=3)
        self.assertEqual(got[0][2], ["a.B.top", "a.B.caller"])
        self.assertEqual(got[1][2], ["c.D.only"])
        self.assertEqual(got[2][0], jfr_shapes.CPU_TIME)
        self.assertEqual(got[2][2], ["e.F.native", "e.F.caller"])


class ShapesTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        runs = self.dir / "sidebyside" / "runs"
        runs.mkdir(parents=True)
        (self.dir / "sidebyside" / "sidebyside.json").write_text(json.dumps({"h2load_warmup_s": 2, "duration_s": 5}))
        # plain ran 23:00:00-23:00:07 (measured from :02), subjects 23:00:10-23:00:17 (from :12)
        for name, shape, end, items_per_s in (
            ("cipherd-plain-r1", "plain", T0 + 7, 1_000_000),
            ("cipherd-subjects-r1", "subjects", T0 + 17, 500_000),
        ):
            row = runs / f"{name}.row.json"
            row.write_text(
                json.dumps(
                    {"target": "cipherd", "shape": shape, "wall_s": 7, "items_per_s": items_per_s, "valid": True}
                )
            )
            os.utime(row, (end, end))

    def test_counts_the_samples_of_each_shapes_measured_window_per_million_items(self):
        text = "".join(
            [
                event(T0 + 1, "warm.Up.only"),  # h2load's warm-up: not counted
                event(T0 + 3, "gcm.Open.doFinal", "engine.Decrypt.plain"),
                event(T0 + 4, "gcm.Open.doFinal", "engine.Decrypt.plain"),
                event(T0 + 13, "cache.Keys.lookup", "engine.Decrypt.subject"),
                event(T0 + 14, "gcm.Open.doFinal", "engine.Decrypt.subject"),
                event(T0 + 20, "after.The.runs"),
            ]
        )

        found = {
            p.runs.shape: p for p in jfr_shapes.profiles(jfr_shapes.samples(text), jfr_shapes.shape_runs(self.dir))
        }

        plain, subjects = found["plain"], found["subjects"]
        self.assertEqual((plain.samples, plain.runs.items), (2, 5_000_000))
        self.assertEqual((subjects.samples, subjects.runs.items), (2, 2_500_000))
        self.assertAlmostEqual(plain.per_million(plain.samples), 0.4)
        self.assertAlmostEqual(subjects.per_million(subjects.anywhere["cache.Keys.lookup"]), 0.4)
        self.assertEqual(plain.top["gcm.Open.doFinal"], 2)

        out = jfr_shapes.render(list(found.values()), ["Keys.lookup"], top=1)

        self.assertIn("cipherd subjects: 2 samples in 1 runs, 2.5 M items, 0.8 per M items", out)
        self.assertIn("0.4  Keys.lookup (on the stack)", out)
        self.assertNotIn("warm.Up.only", out)

    def test_cpu_time_samples_give_the_cpu_each_item_cost_within_the_measured_window(self):
        text = "".join(
            [
                cpu_event(T0 + 1, "warm.Up.only"),  # h2load's warm-up: not counted
                cpu_event(T0 + 3, "gcm.Open.doFinal"),
                cpu_event(T0 + 4, "gcm.Open.doFinal"),
                # a period the sampler stretched while behind: still one sample, CPU_SAMPLE_PERIOD_MS
                cpu_event(T0 + 5, "gcm.Open.doFinal", period_ms=8.0),
                cpu_event(T0 + 13, "cache.Keys.lookup"),
                event(T0 + 13.5, "cache.Keys.lookup"),
            ]
        )

        found = {
            p.runs.shape: p for p in jfr_shapes.profiles(jfr_shapes.samples(text), jfr_shapes.shape_runs(self.dir))
        }

        plain, subjects = found["plain"], found["subjects"]
        # 3 samples of 2 ms over 5,000,000 items: 1.2 ns each
        self.assertEqual((plain.cpu_samples, plain.samples), (3, 0))
        self.assertAlmostEqual(plain.cpu_us_per_item(plain.cpu_ms), 0.0012)
        self.assertAlmostEqual(plain.cpu_top["gcm.Open.doFinal"], 6.0)
        self.assertEqual((subjects.cpu_samples, subjects.samples), (1, 1))

        out = jfr_shapes.render(list(found.values()), [], top=1)

        self.assertIn("CPU-time samples: 3, 0.001 µs of CPU per item", out)
        self.assertIn("1.2  ns per item: gcm.Open.doFinal (on top, CPU time)", out)
        self.assertNotIn("warm.Up.only", out)

    def test_a_frames_cpu_is_its_own_code_or_thread_and_all_of_them_together_a_share(self):
        text = "".join(
            [
                # the tracer's own code, calling into the JDK: its cost
                cpu_event(T0 + 3, "java.util.HashMap.getNode", "otel.Tracer.start", "grpc.Server.handle"),
                # the export's own thread, deep in a library it calls: its cost too
                cpu_event(T0 + 3.5, "net.Socket.write", "otel.Exporter.send", "otel.BatchProcessor.run"),
                # the tracer's interceptor on the stack around the whole call: not its cost
                cpu_event(T0 + 4, "gcm.Open.doFinal", "otel.Interceptor.onMessage", "grpc.Server.handle"),
                cpu_event(T0 + 4.5, "gcm.Open.doFinal", "grpc.Server.handle"),
            ]
        )

        wanted = ["otel.", "BatchProcessor"]
        (plain,) = [
            p
            for p in jfr_shapes.profiles(jfr_shapes.samples(text), jfr_shapes.shape_runs(self.dir), wanted)
            if p.runs.shape == "plain"
        ]

        self.assertEqual(plain.cpu_stack["otel."], 6.0)
        self.assertEqual(plain.cpu_own["otel."], 4.0)
        self.assertEqual(plain.cpu_own["BatchProcessor"], 2.0)
        self.assertEqual(plain.cpu_own_any, 4.0)
        out = jfr_shapes.render([plain], wanted, top=1)
        self.assertIn("0.8  ns per item: otel. in its own code or thread, 1.2 on the stack (CPU time)", out)
        self.assertIn("0.8  ns per item, 50.0 % of the CPU-time samples: any of them", out)

    def test_the_servers_threads_cpu_per_item_comes_from_the_rows(self):
        row = self.dir / "sidebyside" / "runs" / "cipherd-plain-r1.row.json"
        data = json.loads(row.read_text())
        mtime = row.stat().st_mtime
        data.update(
            server_calls=2_000_000,
            items_per_call=1,
            server_thread_cpu_s={"grpc-default-wo": 30.0, "C2 CompilerThre": 1.0},
        )
        row.write_text(json.dumps(data))
        os.utime(row, (mtime, mtime))

        (plain,) = [p for p in jfr_shapes.profiles([], jfr_shapes.shape_runs(self.dir)) if p.runs.shape == "plain"]

        self.assertEqual(plain.runs.served, 2_000_000)
        out = jfr_shapes.render([plain], [], top=2)
        self.assertIn("threads' CPU by /proc: 15.500 µs per item", out)
        self.assertIn("15000.0  ns per item: grpc-default-wo threads", out)
        self.assertIn("500.0  ns per item: C2 CompilerThre threads", out)

    def test_a_run_marked_invalid_is_left_out(self):
        row = self.dir / "sidebyside" / "runs" / "cipherd-plain-r1.row.json"
        data = json.loads(row.read_text())
        data["valid"] = False
        row.write_text(json.dumps(data))

        shapes = {r.shape for r in jfr_shapes.shape_runs(self.dir)}

        self.assertEqual(shapes, {"subjects"})


if __name__ == "__main__":
    unittest.main()
