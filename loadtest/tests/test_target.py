"""--target: campaigns against an already running cipherd (no server started), its figures from its own
/metrics, a bearer token that reaches ghz but never the results, and the GC-only report (--no-throughput)."""

import contextlib
import io
import json
import os
import stat
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import options  # noqa: E402
from lt.campaign import ghz  # noqa: E402
from lt.campaign.figures import RunFigures  # noqa: E402
from lt.measure import hostfacts, prom  # noqa: E402
from lt.report import markdown  # noqa: E402
from lt.servers import remote  # noqa: E402


def parse_error(argv) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), self_exit() as raised:
        options.parse(argv)
    return err.getvalue() if raised else ""


@contextlib.contextmanager
def self_exit():
    raised = []
    try:
        yield raised
    except SystemExit:
        raised.append(True)


class OptionsTest(unittest.TestCase):
    def test_target_with_metrics_url_runs_no_side_by_side(self):
        args = options.parse(
            [
                "--target",
                "127.0.0.1:50051",
                "--metrics-url",
                "http://127.0.0.1:9464/metrics",
                "--label",
                "aarch64-emulated",
                "--no-throughput",
            ]
        )
        self.assertEqual(args.target, "127.0.0.1:50051")
        self.assertTrue(args.no_side_by_side, "the side-by-side starts its own servers")
        self.assertTrue(args.no_throughput)

    def test_refusals_name_the_problem(self):
        self.assertIn("needs --metrics-url", parse_error(["--target", "127.0.0.1:50051"]))
        self.assertIn(
            "expected HOST:PORT", parse_error(["--target", "cipherd", "--metrics-url", "http://h:9464/metrics"])
        )
        self.assertIn(
            "IPv6 address in brackets", parse_error(["--target", "::1:50051", "--metrics-url", "http://h:9464/metrics"])
        )
        self.assertIn(
            "expected http(s)://HOST:PORT/metrics", parse_error(["--target", "h:50051", "--metrics-url", "h:9464"])
        )
        self.assertIn(
            "side-by-side starts its own servers",
            parse_error(["--target", "h:50051", "--metrics-url", "http://h:9464/metrics", "--side-by-side-only"]),
        )
        self.assertIn("go with --target", parse_error(["--metrics-url", "http://h:9464/metrics"]))
        self.assertEqual(remote.split_target("[::1]:50051"), ("[::1]", 50051))


class RemoteServerTest(unittest.TestCase):
    def test_cpu_from_the_servers_own_metrics(self):
        self.assertEqual(remote.cpu_seconds_from(prom.parse("process_cpu_time_ns_total 2.5E9\n")), 2.5)
        self.assertEqual(remote.cpu_seconds_from(prom.parse("process_cpu_seconds_total 1.5\n")), 1.5)
        self.assertIsNone(remote.cpu_seconds_from(prom.parse("jvm_threads_live_threads 20\n")))

    def test_start_refuses_a_metrics_url_that_does_not_answer(self):
        server = remote.RemoteCipherd("127.0.0.1:1", "http://127.0.0.1:1/metrics", "")
        with self.assertRaises(SystemExit) as e:
            server.start(timeout=2)
        self.assertIn("does not answer", str(e.exception))

    def test_facts_name_the_target_not_this_hosts_jdk(self):
        facts = hostfacts.collect_for_target(
            "10.0.0.5:50051", "http://10.0.0.5:9464/metrics", "aarch64-emulated", "abc"
        )
        self.assertEqual(facts["arch"], "aarch64-emulated")
        self.assertEqual(facts["target"]["address"], "10.0.0.5:50051")
        self.assertEqual(facts["jdk"], "the target's own")


FAKE_GHZ = """#!/usr/bin/env python3
import json, sys
cfg = json.load(open(sys.argv[2]))
json.dump({"seen_authorization": cfg.get("metadata", {}).get("authorization"), "count": 1, "rps": 1.0},
          open(cfg["output"], "w"))
"""


class TokenTest(unittest.TestCase):
    def test_the_token_reaches_ghz_and_never_the_kept_config(self):
        with tempfile.TemporaryDirectory() as d:
            fake = Path(d) / "ghz"
            fake.write_text(FAKE_GHZ)
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
            cfg = {"host": "h:1", "output": str(Path(d) / "out.json")}
            with mock.patch.dict(os.environ, {"CIPHERD_TOKEN": "s3cret-token"}):
                report = ghz.run(str(fake), cfg, Path(d) / "run.config.json", 1)
            self.assertEqual(report["seen_authorization"], "Bearer s3cret-token")
            kept = (Path(d) / "run.config.json").read_text()
            self.assertNotIn("s3cret-token", kept)
            self.assertEqual(json.loads(kept)["metadata"]["authorization"], "Bearer <CIPHERD_TOKEN>")

    def test_no_token_no_metadata(self):
        with tempfile.TemporaryDirectory() as d:
            fake = Path(d) / "ghz"
            fake.write_text(FAKE_GHZ)
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
            cfg = {"host": "h:1", "output": str(Path(d) / "out.json")}
            with mock.patch.dict(os.environ, {}, clear=False):
                os.environ.pop("CIPHERD_TOKEN", None)
                report = ghz.run(str(fake), cfg, Path(d) / "run.config.json", 1)
            self.assertIsNone(report["seen_authorization"])


class NoThroughputReportTest(unittest.TestCase):
    def test_the_gc_table_quotes_no_throughput_or_latency(self):
        row = RunFigures(
            family="unary",
            name="encrypt-1k",
            tags={},
            items_per_call=1,
            concurrency=4,
            connections=1,
            valid=True,
            count=1000,
            rps=777777.0,
            items_per_s=777777.0,
            p50_ms=1.1,
            p90_ms=2.2,
            p99_ms=9.87,
            server_calls=1000,
            gc_count=3,
            gc_pause_total_ms=12.5,
            gc_pause_max_ms=6.0,
            allocated_bytes=4_000_000,
            alloc_per_call=4000,
            alloc_per_item=4000,
        )
        text = markdown.main_table([row], no_throughput=True)
        self.assertIn("GC pause ms", text)
        self.assertIn("4,000", text)
        for absent in ("RPC/s", "p99", "777,777", "9.87"):
            self.assertNotIn(absent, text)
        self.assertIn("777,777", markdown.main_table([row]))


if __name__ == "__main__":
    unittest.main()
