"""Tests of lt/sidebyside/h2load.py: its command line and what it prints and logs (no h2load run)."""

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt.sidebyside import h2load  # noqa: E402

H2LOAD_OUT = """starting benchmark...
Application protocol: h2c
Main benchmark duration is over for thread #0. Stopping all clients.

finished in 12.01s, 37412.50 req/s, 8.02MB/s
requests: 374125 total, 374125 started, 374125 done, 374120 succeeded, 3 failed, 2 errored, 0 timeout
status codes: 374120 2xx, 0 3xx, 1 4xx, 2 5xx
traffic: 80.26MB (84160000) total, 1.10MB (1150000) headers (space savings 95.00%), 77.00MB (80740000) data
                     min         max         mean         sd        +/- sd
time for request:       99us    253.10ms      1.21ms    860us    90.14%
time for connect:        0us         0us         0us         0us     0.00%
"""


class H2loadParseTest(unittest.TestCase):
    def test_output(self):
        out = h2load.parse_output(H2LOAD_OUT)
        self.assertEqual(out["rps"], 37412.5)
        self.assertAlmostEqual(out["finished_s"], 12.01)
        self.assertEqual(out["requests"]["succeeded"], 374120)
        self.assertEqual(out["requests"]["failed"], 3)
        self.assertEqual(out["requests"]["errored"], 2)
        self.assertEqual(out["status"], {"2xx": 374120, "3xx": 0, "4xx": 1, "5xx": 2})
        self.assertAlmostEqual(out["time_ms"]["min"], 0.099)
        self.assertAlmostEqual(out["time_ms"]["max"], 253.1)
        self.assertAlmostEqual(out["time_ms"]["sd"], 0.86)

    def test_output_of_a_failed_start_has_no_figures(self):
        self.assertEqual(h2load.parse_output("No URI given\n"), {})

    def test_log_and_percentiles(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            for i in range(1, 101):  # durations 1..100 ms, in µs
                f.write(f"17953303441{i:05d}\t{200 if i != 7 else 500}\t{i * 1000}\n")
            f.write("garbage\n")
        durations, statuses = h2load.read_log(Path(f.name))
        Path(f.name).unlink()
        self.assertEqual(len(durations), 100)
        self.assertEqual(statuses, {"200": 99, "500": 1})
        lat = h2load.latency(durations)
        self.assertEqual(lat["p50_ms"], 50.0)
        self.assertEqual(lat["p90_ms"], 90.0)
        self.assertEqual(lat["p99_ms"], 99.0)
        self.assertEqual(lat["max_ms"], 100.0)

    def test_percentile_nearest_rank(self):
        self.assertIsNone(h2load.percentile([], 99))
        self.assertEqual(h2load.percentile([5.0], 99), 5.0)
        self.assertEqual(h2load.percentile([3.0, 1.0, 2.0], 50), 2.0)
        self.assertEqual(h2load.percentile([1.0, 2.0, 3.0, 4.0], 99), 4.0)
        self.assertEqual(h2load.percentile(list(range(1, 1001)), 99.9), 999)

    def test_command(self):
        spec = h2load.Spec(
            "http://127.0.0.1:1/cipherd.v1.CryptoService/Encrypt", Path("b.bin"), 50, 10, 2, h2load.GRPC_HEADERS
        )
        cmd = h2load.command("h2load", spec, Path("x.log"))
        for flag in (
            ["-c", "50"],
            ["-m", "1"],
            ["-t", "1"],
            ["-D", "10000ms"],
            ["--warm-up-time", "2000ms"],
            ["-H", "te: trailers"],
            ["--log-file", "x.log"],
        ):
            self.assertIn(flag, [cmd[i : i + 2] for i in range(len(cmd) - 1)])
        self.assertNotIn("--h1", cmd)
        self.assertEqual(cmd[-1], spec.url)
        spec.h1 = True
        self.assertIn("--h1", h2load.command("h2load", spec, Path("x.log")))
        self.assertEqual(h2load.duration_arg(3.75), "3750ms")  # h2load rejects "3.75"
        self.assertEqual(h2load.redact(["-H", "X-Vault-Token: abc"]), ["-H", "X-Vault-Token: <redacted>"])
        self.assertEqual(h2load.redact(["http://x/?t=s3cret"], ("s3cret",)), ["http://x/?t=<redacted>"])


if __name__ == "__main__":
    unittest.main()
