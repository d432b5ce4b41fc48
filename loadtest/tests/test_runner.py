"""Unit tests of the runner's pure parts (no server, no ghz): python3 -m unittest discover loadtest/tests"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt.campaign import families, fixtures  # noqa: E402
from lt.campaign.figures import RunFigures, run_figures  # noqa: E402
from lt.measure import prom  # noqa: E402

SCRAPE_BEFORE = """# HELP x
jvm_gc_memory_allocated_bytes_total 1000.0
jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 100.0
jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 2.0
jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.010
grpc_server_processing_duration_seconds_count{method="EncryptBatch",methodType="UNARY",service="cipherd.v1.CryptoService",statusCode="OK"} 10.0
cipherd_crypto_operations_total{key="_all",mode="gcm",operation="encrypt",outcome="ok"} 160.0
"""
SCRAPE_AFTER = """jvm_gc_memory_allocated_bytes_total 41000.0
jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1100.0
jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 5.0
jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.040
jvm_gc_pause_seconds_max{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.015
grpc_server_processing_duration_seconds_count{method="EncryptBatch",methodType="UNARY",service="cipherd.v1.CryptoService",statusCode="OK"} 30.0
cipherd_crypto_operations_total{key="_all",mode="gcm",operation="encrypt",outcome="ok"} 480.0
"""


class CampaignTest(unittest.TestCase):
    def test_every_family_expands_and_resolves(self):
        for name in families.available():
            fam = families.load(name)
            self.assertTrue(fam.runs, name)
            names = [r.name for r in fam.runs]
            self.assertEqual(len(names), len(set(names)), f"{name}: run names repeat")
            ciphertexts = {f: "<k/v1:gcm>AAAA" for r in fam.runs for f in r.fixtures}
            for r in fam.runs:
                resolved = fixtures.resolve(r.ghz, ciphertexts)
                self.assertNotIn("${", str(resolved), r.name)
                self.assertIsInstance(resolved.get("concurrency"), int, r.name)

    def test_batch_items_and_payload(self):
        run = next(r for r in families.load("batch").runs if r.name.endswith("x16"))
        self.assertEqual(run.items_per_call, 16)
        self.assertEqual(len(fixtures.payload_b64(100)), 136)
        self.assertEqual(fixtures.payload_b64(100), fixtures.payload_b64(100))


class DeriveTest(unittest.TestCase):
    def test_figures_from_scrapes(self):
        run = next(r for r in families.load("batch").runs if r.name.endswith("x16"))
        report = {
            "count": 20,
            "rps": 4.0,
            "average": 2e6,
            "statusCodeDistribution": {"OK": 20},
            "latencyDistribution": [{"percentage": 99, "latency": 3_000_000}],
            "client": {"wall_s": 5.0, "cpu_s": 1.0},
        }
        row = run_figures(run, report, prom.parse(SCRAPE_BEFORE), prom.parse(SCRAPE_AFTER), 4.0, 2)
        self.assertTrue(row.valid)
        self.assertEqual(row.items_per_s, 64.0)
        self.assertEqual(row.p99_ms, 3.0)
        self.assertEqual(row.allocated_bytes, 41000.0)  # 40000 counted + 1000 more eden in use
        self.assertEqual(row.alloc_per_call, 2050.0)  # 20 server calls
        self.assertAlmostEqual(row.alloc_per_item, 2050.0 / 16)
        self.assertEqual(row.gc_count, 3.0)
        self.assertAlmostEqual(row.gc_pause_total_ms, 30.0)
        self.assertAlmostEqual(row.gc_pause_max_ms, 15.0)
        self.assertFalse(row.client_bound)
        self.assertIsInstance(row, RunFigures)

    def test_a_run_ghz_could_not_finish_has_no_figures(self):
        run = families.load("batch").runs[0]
        row = run_figures(run, {"failed": "ghz exited 1: boom", "client": {"wall_s": 1.0}}, [], [], 0.0, 2)
        self.assertFalse(row.valid)
        self.assertFalse(row.measured)
        self.assertEqual(row.problem, "ghz exited 1: boom")
        self.assertIsNone(row.rps)

    def test_item_errors_invalidate_a_run(self):
        run = families.load("batch").runs[0]
        after = (
            SCRAPE_AFTER
            + 'cipherd_crypto_operations_total{key="none",mode="none",operation="encrypt",outcome="key_not_found"} 3.0\n'
        )
        report = {"count": 5, "rps": 1.0, "statusCodeDistribution": {"OK": 5}, "client": {"wall_s": 1.0, "cpu_s": 0.1}}
        row = run_figures(run, report, prom.parse(SCRAPE_BEFORE), prom.parse(after), 0.5, 2)
        self.assertFalse(row.valid)
        self.assertIn("3 item errors", row.problem)


if __name__ == "__main__":
    unittest.main()
