"""Unit tests of the side-by-side's pure parts: rows, server figures, rounds, goals, its report section and
check, bodies (no server, no h2load, no network)."""

import argparse
import contextlib
import dataclasses
import io
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import options, sanity  # noqa: E402
from lt.measure import prom  # noqa: E402
from lt.sidebyside import (  # noqa: E402
    bodies,
    cipherd_target,
    echo_target,
    goals,
    h2load,
    lineup,
    runner,
    shapes,
    vault_target,
)
from lt.sidebyside import report as sbs_report  # noqa: E402
from lt.sidebyside.rounds import median_rounds  # noqa: E402
from lt.sidebyside.row import row_figures  # noqa: E402
from lt.sidebyside.target import ServerFigures, Target  # noqa: E402

BY_NAME = {s.name: s for s in shapes.SHAPES}
SHAPE = BY_NAME["encrypt"]
BATCH = BY_NAME["encrypt-batch-256"]


def h2(rps=1000.0, succeeded=10000, failed=0, s5xx=0, wall=12.0, cpu=3.0):
    return {
        "rps": rps,
        "requests": {"total": succeeded + failed, "succeeded": succeeded, "failed": failed, "errored": 0, "timeout": 0},
        "status": {"2xx": succeeded, "3xx": 0, "4xx": 0, "5xx": s5xx},
        "time_ms": {"mean": 1.0},
        "client": {"wall_s": wall, "cpu_s": cpu, "killed": False},
    }


def row(target, shape, rps, p99=2.0, alloc=None):
    server = ServerFigures(calls=rps * 12, allocated_bytes=alloc)
    return row_figures(
        target,
        shape,
        h2(rps=rps, succeeded=int(rps * 10)),
        {"p50_ms": 1.0, "p99_ms": p99},
        {"200": 1},
        12.0,
        0.0,
        2,
        server,
    )


class RowTest(unittest.TestCase):
    def test_valid_row(self):
        r = row_figures(
            "cipherd",
            BATCH,
            h2(rps=1000.0),
            {"p99_ms": 3.0},
            {"200": 10000},
            18.0,
            23.0,
            2,
            ServerFigures(calls=12000, allocated_bytes=12000 * 256 * 100),
        )
        self.assertTrue(r.valid, r.problem)
        self.assertEqual(r.items_per_s, 256000.0)
        self.assertEqual(r.alloc_per_call, 25600.0)
        self.assertEqual(r.alloc_per_item, 100.0)
        self.assertAlmostEqual(r.h2load_cores, 0.25)
        self.assertAlmostEqual(r.server_cores, 1.5)
        self.assertAlmostEqual(r.other_cores, 23.0 / 12 - 1.75)
        self.assertFalse(r.client_bound)
        self.assertTrue(r.box_saturated)

    def test_grpc_errors_seen_by_the_server_invalidate(self):
        r = row_figures(
            "cipherd",
            SHAPE,
            h2(),
            {},
            {},
            1.0,
            0.0,
            2,
            ServerFigures(calls=12000, non_ok={"INVALID_ARGUMENT": 12000.0}, allocated_bytes=0),
        )
        self.assertFalse(r.valid)
        self.assertIn("INVALID_ARGUMENT=12000", r.problem)

    def test_cancelled_at_stop_is_tolerated_up_to_one_per_client(self):
        ok = row_figures(
            "cipherd", BATCH, h2(), {}, {}, 1.0, 0.0, 2, ServerFigures(calls=12000, non_ok={"CANCELLED": 16.0})
        )
        self.assertTrue(ok.valid, ok.problem)
        self.assertEqual(ok.cancelled_at_stop, 16.0)
        bad = row_figures(
            "cipherd", BATCH, h2(), {}, {}, 1.0, 0.0, 2, ServerFigures(calls=12000, non_ok={"CANCELLED": 17.0})
        )
        self.assertFalse(bad.valid)

    def test_http_and_h2load_failures_and_item_errors_invalidate(self):
        for kwargs, server, needle in [
            ({"s5xx": 3}, {}, "non-2xx"),
            ({"failed": 2}, {}, "2 failed"),
            ({}, {"item_errors": 5}, "5 failed batch items"),
            ({}, {"calls": 10}, "fewer than h2load"),
        ]:
            server = ServerFigures(**server)
            r = row_figures("vault-transit", SHAPE, h2(**kwargs), {}, {}, 1.0, 0.0, 2, server)
            self.assertFalse(r.valid, needle)
            self.assertIn(needle, r.problem)

    def test_cipherd_server_figures_from_scrapes(self):
        before = prom.parse(
            'grpc_server_processing_duration_seconds_count{method="Encrypt",statusCode="OK"} 10\n'
            'grpc_server_processing_duration_seconds_count{method="EncryptBatch",statusCode="OK"} 99\n'
            "jvm_gc_memory_allocated_bytes_total 1000\n"
        )
        after = prom.parse(
            'grpc_server_processing_duration_seconds_count{method="Encrypt",statusCode="OK"} 110\n'
            'grpc_server_processing_duration_seconds_count{method="Encrypt",statusCode="CANCELLED"} 2\n'
            'grpc_server_processing_duration_seconds_count{method="EncryptBatch",statusCode="OK"} 500\n'
            "jvm_gc_memory_allocated_bytes_total 103000\n"
        )
        f = cipherd_target.server_figures(before, after, "Encrypt")
        self.assertEqual(f.calls, 102.0)
        self.assertEqual(f.non_ok, {"CANCELLED": 2.0})
        self.assertEqual(f.allocated_bytes, 102000.0)
        self.assertEqual(f.item_errors, 0)

    def test_echo_server_figures_from_stats(self):
        before = prom.parse('echo_allocated_bytes_total 500\necho_calls_total{method="Encrypt"} 5\n')
        after = prom.parse(
            'echo_allocated_bytes_total 10500\necho_calls_total{method="Encrypt"} 105\n'
            'echo_calls_total{method="EncryptBatch"} 7\n'
        )
        f = echo_target.server_figures(before, after, "Encrypt")
        self.assertEqual((f.calls, f.allocated_bytes), (100.0, 10000.0))


class TargetsTest(unittest.TestCase):
    def rows(self, unary_cipherd=30000.0, p99=4.0, batch_items=1.2e6, rewrap_items=6e5, subject_share=0.95):
        enc, eb, rb = BY_NAME["encrypt"], BY_NAME["encrypt-batch-256"], BY_NAME["reencrypt-batch-256"]
        db, ebs, dbs = (
            BY_NAME[n] for n in ("decrypt-batch-256", "encrypt-batch-256-subjects", "decrypt-batch-256-subjects")
        )
        return [
            row("cipherd", ebs, batch_items * subject_share / 256),
            row("cipherd", db, 4000.0),
            row("cipherd", dbs, 4000.0 * subject_share),
            row("vault-transit", enc, 8500.0),
            row("echo", enc, 38000.0),
            row("cipherd", enc, unary_cipherd, p99, alloc=unary_cipherd * 12 * 1500),
            row("vault-transit", eb, 250000.0 / 256),
            row("echo", eb, 2.4e6 / 256),
            row("cipherd", eb, batch_items / 256, alloc=batch_items / 256 * 12 * 256 * 200),
            row("vault-transit", rb, 100000.0 / 256),
            row("echo", rb, 2.4e6 / 256),
            row("cipherd", rb, rewrap_items / 256),
        ]

    def by_name(self, rows):
        return {g.target: g for g in goals.check_goals(rows)}

    def test_all_met(self):
        t = self.by_name(self.rows())
        self.assertTrue(all(x.met for x in t.values()), t)
        self.assertEqual(t["unary Encrypt ≥ 3× Vault Transit unary"].figure, "3.53×")
        self.assertEqual(t["unary Encrypt ≥ 70 % of the echo ceiling"].figure, "79 %")
        self.assertEqual(t["EncryptBatch-256 ≥ 4× Vault Transit batched"].figure, "4.80×")
        self.assertEqual(t["allocation ≤ 300 B per EncryptBatch item"].figure, "200 B")

    def test_missed_and_not_measured(self):
        rows = self.rows(unary_cipherd=20000.0, p99=12.0, batch_items=9e5)
        rows = [r for r in rows if not (r.target == "cipherd" and r.shape == "reencrypt-batch-256")]
        t = self.by_name(rows)
        self.assertIs(t["unary Encrypt ≥ 3× Vault Transit unary"].met, False)  # 2.35×
        self.assertEqual(t["unary Encrypt ≥ 3× Vault Transit unary"].figure, "2.35×")
        self.assertFalse(t["unary Encrypt ≥ 70 % of the echo ceiling"].met)  # 53 %
        self.assertFalse(t["unary Encrypt p99 < 10 ms at 50 concurrent"].met)
        self.assertFalse(t["EncryptBatch-256 ≥ 1,000,000 items/s"].met)
        self.assertIsNone(t["ReEncryptBatch-256 ≥ 500,000 items/s"].met)

    def test_subject_bound_batches_against_plain_gcm(self):
        met = self.by_name(self.rows())
        name = "subject-bound EncryptBatch-256, warm subjects, ≥ 90 % of plain gcm items/s (issue 32)"
        self.assertEqual((met[name].met, met[name].figure), (True, "95 %"))
        missed = self.by_name(self.rows(subject_share=0.8))
        decrypt = "subject-bound DecryptBatch-256, warm subjects, ≥ 90 % of plain gcm items/s (issue 32)"
        self.assertEqual((missed[decrypt].met, missed[decrypt].figure), (False, "80 %"))

    def test_subject_ratios_are_taken_round_by_round(self):
        eb, ebs = BY_NAME["encrypt-batch-256"], BY_NAME["encrypt-batch-256-subjects"]
        rounds = [
            dataclasses.replace(row("cipherd", s, rps), round=n)
            for n, plain, subject in ((1, 1000.0, 950.0), (2, 1000.0, 800.0), (3, 500.0, 480.0))
            for s, rps in ((eb, plain), (ebs, subject))
        ]
        r = goals.subject_ratios(rounds, [eb, ebs])
        self.assertEqual(list(r), ["encrypt-batch-256-subjects"])
        self.assertEqual(r["encrypt-batch-256-subjects"]["plain"], "encrypt-batch-256")
        self.assertEqual([round(v, 2) for v in r["encrypt-batch-256-subjects"]["rounds"]], [0.95, 0.8, 0.96])
        self.assertAlmostEqual(r["encrypt-batch-256-subjects"]["median"], 0.95)
        self.assertEqual(goals.subject_ratios(rounds, [ebs]), {})  # its counterpart not measured: no ratio

    def test_an_invalid_run_counts_for_no_target(self):
        rows = self.rows()
        rows = [dataclasses.replace(r, valid=False) if r.label == "vault-transit-encrypt" else r for r in rows]
        t = self.by_name(rows)
        self.assertIsNone(t["unary Encrypt ≥ 3× Vault Transit unary"].met)
        self.assertTrue(t["unary Encrypt ≥ 70 % of the echo ceiling"].met)

    def test_section_renders(self):
        rows = self.rows()
        rows += [
            row("vault-transit", BY_NAME["decrypt-batch-256"], 900.0),
            row("echo", BY_NAME["decrypt-batch-256"], 9000.0),
            row("echo", BY_NAME["reencrypt-stream-256"], 8000.0),
            row("cipherd", BY_NAME["reencrypt-stream-256"], 2000.0),
        ]
        sbs = {
            "rows": rows,
            "shapes": list(shapes.SHAPES),
            "subject_ratios": {
                "encrypt-batch-256-subjects": {"plain": "encrypt-batch-256", "rounds": [0.95, None], "median": 0.95}
            },
            "cold_subjects": {
                "subjects": 5000,
                "cache_size": 1000,
                "cold_p50_ms": 0.61,
                "cold_p99_ms": 1.9,
                "warm_p50_ms": 0.42,
                "warm_p99_ms": 0.9,
                "errors": 0,
            },
            "duration_s": 10,
            "h2load_warmup_s": 2,
            "warmup_s": 15,
            "payload_bytes": 100,
            "h2load_version": "h2load nghttp2/1.52.0",
            "versions": {"grpc.version": "1.83.0", "protobuf.version": "3.25.9"},
            "ratios": goals.ratios(rows, list(shapes.NAMES)),
            "targets": goals.check_goals(rows),
            "notes": ["a note"],
        }
        text = "\n".join(sbs_report.section(sbs))
        self.assertIn("| encrypt | cipherd | 50 |", text)
        self.assertIn("**met**: unary Encrypt ≥ 3× Vault Transit unary", text)
        self.assertIn("- a note", text)
        self.assertIn("| decrypt-batch-256 | cipherd | 16 | 4,000 | 1,024,000 |", text)
        self.assertIn(
            "- cipherd `encrypt-batch-256-subjects` ÷ `encrypt-batch-256` (items/s, back to back): median 95 %; "
            "rounds: 95 %, —",
            text,
        )
        self.assertIn(
            "cold subject (5,000 subjects, subject-key cache 1,000, one call at a time): p50 0.61 ms, p99 1.90 ms", text
        )
        self.assertIn("| decrypt-batch-256 | 4.44× | 44 % |", text)
        # ReEncryptStream has no Transit counterpart: a row of '–' and no ratio to Vault
        self.assertIn("| reencrypt-stream-256 | Vault Transit | – | – |", text)
        self.assertIn("no counterpart |", text)
        self.assertIn("| reencrypt-stream-256 | – | 25 % |", text)


class RoundsTest(unittest.TestCase):
    def test_median_round_and_spread(self):
        rs = [
            dataclasses.replace(row("cipherd", SHAPE, rps), round=i + 1)
            for i, rps in enumerate([300.0, 100.0, 200.0, 900.0])
        ]
        rs[3] = dataclasses.replace(rs[3], valid=False)
        rs.append(row("echo", SHAPE, 50.0))
        out = {r.target: r for r in median_rounds(rs)}
        self.assertEqual(out["cipherd"].items_per_s, 200.0)  # median of 100, 200, 300
        self.assertEqual(out["cipherd"].rounds.invalid, (4,))
        self.assertEqual(out["cipherd"].rounds.items_per_s, (300.0, 100.0, 200.0, 900.0))
        self.assertIsNone(out["echo"].rounds)
        self.assertIn("median of 3 valid / 4 rounds", sbs_report.note(out["cipherd"]))

    def test_no_valid_round_keeps_the_pair_invalid(self):
        rs = [
            dataclasses.replace(row("cipherd", SHAPE, 100.0), round=1, valid=False),
            dataclasses.replace(row("cipherd", SHAPE, 90.0), round=2, valid=False),
        ]
        (only,) = median_rounds(rs)
        self.assertFalse(only.valid)
        self.assertEqual(only.rounds.invalid, (1, 2))


class ColdSubjectsTest(unittest.TestCase):
    def test_failures_are_named_by_status(self):
        from lt.sidebyside import cold_subjects

        c = cold_subjects.ColdSubjects(5000, 1000, 0.6, 1.9, 0.4, 0.9, 3, {"UNAVAILABLE": 2, "DEADLINE_EXCEEDED": 1})
        self.assertTrue(cold_subjects.line(c).endswith("; 3 calls failed (DEADLINE_EXCEEDED 1, UNAVAILABLE 2)"))
        none = cold_subjects.ColdSubjects(5000, 1000, None, None, None, None, 10000, {"UNAVAILABLE": 10000})
        self.assertEqual(
            cold_subjects.line(none),
            "Decrypt of a cold subject: not measured, 10000 of 10,000 calls failed (UNAVAILABLE 10000)",
        )


class OptionsTest(unittest.TestCase):
    def test_flags_and_the_smoke_preset(self):
        a = options.parse(["--side-by-side-only", "--sbs-duration", "5"])
        self.assertTrue(a.side_by_side_only)
        self.assertEqual((a.sbs_duration, a.sbs_warmup, a.sbs_h2load_warmup), (5.0, 30.0, 2.0))
        self.assertFalse(a.no_side_by_side)
        smoke = options.parse(["--preset", "smoke"])  # make test runs a short side-by-side
        self.assertFalse(smoke.no_side_by_side)
        self.assertLessEqual(smoke.sbs_duration + smoke.sbs_warmup / 3, 10)

    def test_cold_subjects_must_outnumber_the_subject_cache(self):
        a = options.parse(["--side-by-side-only", "--sbs-cold-subjects", "5000", "--sbs-subject-cache-size", "1000"])
        self.assertEqual((a.sbs_cold_subjects, a.sbs_subject_cache_size), (5000, 1000))
        self.assertEqual(options.parse([]).sbs_cold_subjects, 0)  # not run unless asked
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            options.parse(["--sbs-cold-subjects", "1000"])
        self.assertIn("must exceed --sbs-subject-cache-size 1000", err.getvalue())

    def test_check_of_a_side_by_side(self):
        self.assertEqual(sanity.side_by_side_problems(None), [])
        self.assertIn("did not complete", sanity.side_by_side_problems({"error": "Vault exited"})[0])
        bad = {"rows": [dataclasses.replace(row("echo", SHAPE, 10.0), valid=False, problem="x")], "shapes": [SHAPE]}
        self.assertEqual(sanity.side_by_side_problems(bad)[0], "side-by-side echo-encrypt: not valid (x)")
        rows = [row(t, SHAPE, 10.0) for t in lineup.for_shape(SHAPE)]
        self.assertEqual(sanity.side_by_side_problems({"rows": rows, "shapes": [SHAPE]}), [])
        self.assertEqual(
            sanity.side_by_side_problems({"rows": rows[1:], "shapes": [SHAPE]}),
            ["side-by-side vault-transit-encrypt: no row"],
        )

    def test_check_needs_every_server_of_every_shape_and_vault_only_where_it_has_a_counterpart(self):
        rows = [row(t, s, 10.0) for s in shapes.SHAPES for t in lineup.for_shape(s)]
        sbs = {"rows": rows, "shapes": list(shapes.SHAPES)}
        self.assertEqual(sanity.side_by_side_problems(sbs), [])
        # Vault has no ReEncryptStream and no subject-bound shapes, echo no subject-bound shapes
        self.assertEqual(len(rows), 3 * 4 + 2 * 1 + 1 * 3)
        self.assertNotIn(("echo", "decrypt-batch-256-subjects"), {(r.target, r.shape) for r in rows})
        without = [r for r in rows if r.label not in ("vault-transit-decrypt-batch-256", "echo-reencrypt-stream-256")]
        self.assertEqual(
            sanity.side_by_side_problems({"rows": without, "shapes": list(shapes.SHAPES)}),
            ["side-by-side vault-transit-decrypt-batch-256: no row", "side-by-side echo-reencrypt-stream-256: no row"],
        )
        only_one_shape = [r for r in rows if r.shape == "encrypt"]
        found = sanity.side_by_side_problems({"rows": only_one_shape, "shapes": list(shapes.SHAPES)})
        self.assertIn("side-by-side cipherd-reencrypt-stream-256: no row", found)


class BodiesTest(unittest.TestCase):
    def test_frame(self):
        self.assertEqual(bodies.frame(b"abc"), b"\x00\x00\x00\x00\x03abc")
        self.assertEqual(bodies.unframe_all(bodies.frame(b"x" * 300)), [b"x" * 300])
        with self.assertRaises(ValueError):
            bodies.unframe_all(b"\x01\x00\x00\x00\x01a")
        with self.assertRaises(ValueError):
            bodies.unframe_all(bodies.frame(b"abc")[:-1])

    def test_a_stream_body_is_its_messages_framed_back_to_back(self):
        messages = [f"message {i}".encode() * (i + 1) for i in range(256)]
        body = bodies.frames(messages)
        self.assertEqual(len(body), sum(5 + len(m) for m in messages))
        self.assertEqual(bodies.unframe_all(body), messages)

    def test_vault_bodies(self):
        import json

        one = json.loads(bodies.vault_encrypt(b"\x00" * 3))
        self.assertEqual(one, {"plaintext": "AAAA"})
        batch = json.loads(bodies.vault_encrypt_batch(b"hi", 256))
        self.assertEqual(len(batch["batch_input"]), 256)
        self.assertEqual(
            json.loads(bodies.vault_ciphertext_batch("vault:v1:x", 2)),
            {"batch_input": [{"ciphertext": "vault:v1:x"}] * 2},
        )

    def test_payload_is_the_campaigns_payload(self):
        import base64

        from lt.campaign import fixtures

        self.assertEqual(base64.b64encode(shapes.payload()).decode(), fixtures.payload_b64(100))

    def test_vault_batch_problems(self):
        good = {"data": {"batch_results": [{"ciphertext": "vault:v1:a"}] * 4}}
        self.assertEqual(vault_target.batch_problems(good, 4), [])
        bad = {"data": {"batch_results": [{"ciphertext": "vault:v1:a"}, {"error": "bad base64"}]}}
        p = vault_target.batch_problems(bad, 4)
        self.assertEqual(len(p), 2)
        self.assertIn("bad base64", p[1])


class WarmUpTest(unittest.TestCase):
    def test_the_warm_up_seconds_are_split_over_the_shapes_the_server_runs_by_their_weights(self):
        by_name = {s.name: s for s in shapes.SHAPES}
        chosen = [by_name["encrypt"], by_name["encrypt-batch-256"], by_name["encrypt-batch-256-subjects"]]
        url = "http://127.0.0.1:1/x"
        specs = {s.name: h2load.Spec(url, Path("b"), s.clients, 5.0, 1.0, h2load.GRPC_HEADERS) for s in chosen[:2]}
        target = Target("echo", specs, lambda: 0.0, lambda: None, lambda b, s: None)
        ctx = dataclasses.make_dataclass("Ctx", ["args", "h2load", "dir"])(
            argparse.Namespace(sbs_shapes=chosen, sbs_warmup=30.0), Path("h2load"), Path("/tmp")
        )
        seconds = []
        original = h2load.run
        h2load.run = lambda tool, spec, log, out: seconds.append(spec.duration_s) or {"requests": {"succeeded": 1}}
        try:
            runner.warm(ctx, target)
        finally:
            h2load.run = original

        # the subject-bound shape is not the target's: the two others share the 30 s, equal weights
        self.assertEqual(seconds, [15.0, 15.0])


if __name__ == "__main__":
    unittest.main()
