"""cipherd ÷ baseline (--baseline-jar): the per-shape ratio with both sides' spreads and each round's
ratio, its rows in report.md, --check of a run with a baseline, and what is noted when the two cipherds'
bodies or answers differ (no server, no h2load)."""

import dataclasses
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import rows as rows_json  # noqa: E402
from lt import sanity  # noqa: E402
from lt.report.summary import load_summary  # noqa: E402
from lt.sidebyside import baseline, cipherd_target, goals, lineup, shapes  # noqa: E402
from lt.sidebyside import report as sbs_report  # noqa: E402
from lt.sidebyside.lineup import BASELINE, CIPHERD, ECHO, VAULT  # noqa: E402
from lt.sidebyside.rounds import median_rounds  # noqa: E402
from lt.sidebyside.row import row_figures  # noqa: E402
from lt.sidebyside.target import ServerFigures  # noqa: E402

BY_NAME = {s.name: s for s in shapes.SHAPES}
ENC = BY_NAME["encrypt"]


def row(target, shape, rps, round_no=1, valid=True):
    h2 = {
        "rps": rps,
        "requests": {"succeeded": int(rps * 10), "failed": 0, "errored": 0, "timeout": 0},
        "status": {"2xx": int(rps * 10)},
        "time_ms": {"mean": 1.0},
        "client": {"wall_s": 12.0, "cpu_s": 3.0},
    }
    r = row_figures(
        target,
        shape,
        h2,
        {"p50_ms": 1.0, "p99_ms": 2.0},
        {"200": 1},
        12.0,
        0.0,
        2,
        ServerFigures(calls=rps * 12, allocated_bytes=rps * 12 * 1000),
        round_no=round_no,
    )
    return r if valid else dataclasses.replace(r, valid=False, problem="x")


def rounds(target, shape, rates, invalid=()):
    return [row(target, shape, rps, i + 1, valid=i + 1 not in invalid) for i, rps in enumerate(rates)]


def section(rows, servers=(ECHO, CIPHERD, BASELINE), n_rounds=3):
    """The side-by-side section as runner.run makes it, from every round's rows."""
    picked = median_rounds(rows)
    names = list(shapes.NAMES)
    return {
        "rows": picked,
        "shapes": list(shapes.SHAPES),
        "duration_s": 3,
        "h2load_warmup_s": 2,
        "warmup_s": 5,
        "payload_bytes": 100,
        "h2load_version": "h2load nghttp2/1.52.0",
        "rounds": n_rounds,
        "versions": {"grpc.version": "1.83.0", "protobuf.version": "3.25.9"},
        "ratios": goals.ratios(picked, names),
        "targets": goals.check_goals(picked),
        "notes": [],
        "servers": list(servers),
        "baseline": baseline.ratios(picked, names),
        "baseline_jar": {"path": "/tmp/cipherd-before.jar", "sha256": "ab" * 32},
    }


def full(servers, n=1):
    """Every round's rows of every server of every shape, all valid."""
    return [
        r
        for s in shapes.SHAPES
        for t in lineup.for_shape(s, servers)
        for r in rounds(t, s, [100.0 + i for i in range(n)])
    ]


class BaselineRatioTest(unittest.TestCase):
    def test_median_ratio_spreads_and_each_rounds_ratio(self):
        picked = median_rounds(
            rounds(CIPHERD, ENC, [1100.0, 1300.0, 1200.0]) + rounds(BASELINE, ENC, [1000.0, 1000.0, 800.0])
        )
        (b,) = baseline.ratios(picked, ["encrypt"])
        self.assertEqual((b.shape, b.cipherd_items_per_s, b.baseline_items_per_s), ("encrypt", 1200.0, 1000.0))
        self.assertAlmostEqual(b.ratio, 1.2)
        self.assertEqual(b.cipherd_spread, (1100.0, 1300.0))
        self.assertEqual(b.baseline_spread, (800.0, 1000.0))
        self.assertEqual(b.round_ratios, (1.1, 1.3, 1.5))
        self.assertFalse(b.overlap)
        self.assertEqual(sbs_report.verdict(b), "spreads apart: cipherd faster in every round")

    def test_an_invalid_round_leaves_its_ratio_out_and_overlapping_spreads_are_noise(self):
        picked = median_rounds(
            rounds(CIPHERD, ENC, [1000.0, 5000.0, 980.0], invalid=(2,)) + rounds(BASELINE, ENC, [990.0, 1010.0, 1000.0])
        )
        (b,) = baseline.ratios(picked, ["encrypt"])
        self.assertEqual(b.cipherd_spread, (980.0, 1000.0))
        self.assertEqual(b.round_ratios[1], None)
        self.assertAlmostEqual(b.round_ratios[0], 1000.0 / 990.0)
        self.assertTrue(b.overlap)
        self.assertEqual(sbs_report.verdict(b), "within the rounds' spread")

    def test_one_round_has_no_spread_to_judge_by(self):
        (b,) = baseline.ratios([row(CIPHERD, ENC, 900.0), row(BASELINE, ENC, 1000.0)], ["encrypt"])
        self.assertAlmostEqual(b.ratio, 0.9)
        self.assertEqual(b.round_ratios, (0.9,))
        self.assertIsNone(b.overlap)
        self.assertEqual(sbs_report.verdict(b), "one valid round: no spread to judge by")
        self.assertEqual(
            sbs_report.baseline_row(b),
            [
                "encrypt",
                "900",
                "1,000",
                "0.900×",
                "900",
                "1,000",
                "0.90",
                "one valid round: no spread to judge by",
                "1.111×",
                "1.11",
            ],
        )

    def test_server_cpu_per_item_is_compared_round_by_round(self):
        # Each test row's server spent 12 CPU seconds on rps × 12 calls: 1e6 / rps µs per item.
        cpu = [12.0, 24.0, 12.0]
        group = [
            dataclasses.replace(r, server_cpu_s=s)
            for r, s in zip(rounds(CIPHERD, ENC, [1000.0, 1000.0, 1000.0], invalid=(3,)), cpu, strict=True)
        ]
        picked = median_rounds(group + rounds(BASELINE, ENC, [1000.0, 2000.0, 1000.0]))
        c = next(r for r in picked if r.target == CIPHERD)
        self.assertEqual(c.rounds.server_us_per_item, (1000.0, 2000.0, 1000.0))
        (b,) = baseline.ratios(picked, ["encrypt"])
        # Round 1: the same cost; round 2: cipherd spent twice the CPU on half the baseline's rate per
        # item, four times the baseline's cost; round 3 is invalid for cipherd and left out.
        self.assertEqual(b.cpu_round_ratios, (1.0, 4.0, None))
        self.assertEqual(b.cpu_ratio, 2.5)
        self.assertEqual(sbs_report.baseline_row(b)[-2:], ["2.500×", "1.00, 4.00, –"])

    def test_results_without_cpu_per_item_have_no_cpu_ratio(self):
        picked = [
            dataclasses.replace(r, rounds=dataclasses.replace(r.rounds, server_us_per_item=()))
            for r in median_rounds(rounds(CIPHERD, ENC, [900.0, 950.0]) + rounds(BASELINE, ENC, [1000.0, 990.0]))
        ]
        (b,) = baseline.ratios(picked, ["encrypt"])
        self.assertEqual(b.cpu_round_ratios, (None, None))
        self.assertIsNone(b.cpu_ratio)
        self.assertEqual(sbs_report.baseline_row(b)[-2:], ["–", "–, –"])

    def test_an_invalid_side_is_not_measured_and_a_missing_one_has_no_ratio(self):
        (b,) = baseline.ratios([row(CIPHERD, ENC, 900.0), row(BASELINE, ENC, 1000.0, valid=False)], ["encrypt"])
        self.assertIsNone(b.ratio)
        self.assertIsNone(b.baseline_items_per_s)
        self.assertEqual(b.baseline_spread, ())
        self.assertEqual(b.round_ratios, (None,))
        self.assertEqual(sbs_report.verdict(b), "not measured (missing or invalid run)")
        self.assertEqual(baseline.ratios([row(CIPHERD, ENC, 900.0)], ["encrypt"]), [])

    def test_spreads_apart_below_one_is_slower(self):
        picked = median_rounds(rounds(CIPHERD, ENC, [900.0, 950.0]) + rounds(BASELINE, ENC, [1000.0, 990.0]))
        (b,) = baseline.ratios(picked, ["encrypt"])
        self.assertFalse(b.overlap)
        self.assertEqual(sbs_report.verdict(b), "spreads apart: cipherd slower in every round")

    def test_reads_back_from_summary_json(self):
        sbs = section(full((ECHO, CIPHERD, BASELINE), n=3))
        with tempfile.TemporaryDirectory() as d:
            rows_json.write(Path(d) / "summary.json", {"host": {}, "runs": [], "side_by_side": sbs})
            back = load_summary(Path(d))["side_by_side"]
        self.assertEqual(back["baseline"], sbs["baseline"])


class ReportTest(unittest.TestCase):
    def test_baseline_rows_and_ratio_table(self):
        rows = full((ECHO, CIPHERD, BASELINE), n=3)
        rows = [
            dataclasses.replace(r, rps=r.rps * 2, items_per_s=r.items_per_s * 2) if r.target == CIPHERD else r
            for r in rows
        ]
        text = "\n".join(sbs_report.section(section(rows)))
        self.assertIn("## Side by side (h2load): echo ceiling, cipherd, cipherd baseline", text)
        self.assertIn("| encrypt | cipherd baseline | 50 | 101 | 101 |", text)
        self.assertIn("| encrypt | cipherd | 50 | 202 | 202 |", text)
        self.assertIn("### cipherd ÷ baseline", text)
        self.assertIn("`/tmp/cipherd-before.jar` (SHA-256 `abababababababab…`)", text)
        self.assertIn(
            "| encrypt | 202 | 101 | 2.000× | 200–204 | 100–102 | 2.00, 2.00, 2.00 | "
            "spreads apart: cipherd faster in every round |",
            text,
        )
        self.assertIn("| reencrypt-stream-256 | 51,712 | 25,856 | 2.000× |", text)
        # no Vault: neither its rows, nor its 'no counterpart' row, nor its ratio column
        self.assertNotIn("| Vault Transit |", text)
        self.assertNotIn("no counterpart", text)
        self.assertIn("| shape | cipherd ÷ ceiling |", text)
        self.assertIn("| reencrypt-stream-256 | 200 % |", text)

    def test_without_a_baseline_the_section_is_as_before(self):
        rows = full((VAULT, ECHO, CIPHERD))
        sbs = section(rows, servers=(VAULT, ECHO, CIPHERD), n_rounds=1)
        sbs["baseline"], sbs["baseline_jar"] = [], None
        text = "\n".join(sbs_report.section(sbs))
        self.assertIn("## Side by side (h2load): Vault Transit, echo ceiling, cipherd", text)
        self.assertNotIn("baseline", text)
        self.assertIn("| reencrypt-stream-256 | Vault Transit | – |", text)
        self.assertIn("| shape | cipherd ÷ Vault | cipherd ÷ ceiling |", text)
        del sbs["servers"]  # older results name no servers: the three
        self.assertEqual(text, "\n".join(sbs_report.section(sbs)))


class CheckTest(unittest.TestCase):
    def test_a_complete_run_with_a_baseline_and_without_vault_passes(self):
        self.assertEqual(sanity.side_by_side_problems(section(full((ECHO, CIPHERD, BASELINE), n=3))), [])

    def test_baseline_rows_are_required_and_validated(self):
        rows = full((ECHO, CIPHERD, BASELINE))
        missing = [r for r in rows if r.label != "cipherd-baseline-decrypt-batch-256"]
        self.assertEqual(
            sanity.side_by_side_problems(section(missing, n_rounds=1)),
            [
                "side-by-side cipherd-baseline-decrypt-batch-256: no row",
                "side-by-side cipherd ÷ baseline of decrypt-batch-256: not measured",
            ],
        )
        bad = [
            dataclasses.replace(r, valid=False, problem="server counted gRPC statuses UNIMPLEMENTED=9")
            if r.label == "cipherd-baseline-reencrypt-stream-256"
            else r
            for r in rows
        ]
        self.assertEqual(
            sanity.side_by_side_problems(section(bad, n_rounds=1)),
            [
                "side-by-side cipherd-baseline-reencrypt-stream-256: not valid "
                "(server counted gRPC statuses UNIMPLEMENTED=9)",
                "side-by-side cipherd ÷ baseline of reencrypt-stream-256: not measured",
            ],
        )

    def test_vault_rows_are_required_only_when_vault_ran(self):
        rows = full((ECHO, CIPHERD))
        self.assertEqual(sanity.side_by_side_problems(section(rows, servers=(ECHO, CIPHERD), n_rounds=1)), [])
        found = sanity.side_by_side_problems(section(rows, servers=(VAULT, ECHO, CIPHERD), n_rounds=1))
        self.assertIn("side-by-side vault-transit-encrypt: no row", found)
        self.assertEqual(len(found), 4)  # Vault has no ReEncryptStream


class DifferencesTest(unittest.TestCase):
    def test_the_baselines_bodies_and_answers_are_compared_with_cipherds(self):
        mine, theirs = {"encrypt": [b"x" * 10]}, {"encrypt": [b"x" * 10]}
        seen = {"encrypt": {"shape": {"ciphertext_len": 60}, "response_bytes": 70}}
        self.assertEqual(cipherd_target.differences(BASELINE, mine, theirs, seen, seen), [])
        other = {"encrypt": {"shape": {"ciphertext_len": 64}, "response_bytes": 74}}
        notes = cipherd_target.differences(BASELINE, {"encrypt": [b"x" * 12]}, theirs, other, seen)
        self.assertEqual(len(notes), 2)
        self.assertIn("cipherd-baseline's `encrypt` request is 12 B, cipherd's 10 B", notes[0])
        self.assertIn("cipherd-baseline's answer to `encrypt` differs from cipherd's", notes[1])


if __name__ == "__main__":
    unittest.main()


class ServerArgsTest(unittest.TestCase):
    """--server-arg and --baseline-server-arg: each side gets only its own, {tmp} becomes that server's
    folder, and the report names them so a ratio of two settings says which settings."""

    def test_tmp_stands_for_the_servers_own_folder(self):
        from lt.servers.cipherd import Cipherd

        with tempfile.TemporaryDirectory() as d:
            a = Cipherd(Path("java"), Path("a.jar"), Path(d), [], extra_args=["--audit-log={tmp}/audit.log"])
            b = Cipherd(Path("java"), Path("a.jar"), Path(d), [])
            try:
                self.assertEqual(a.extra_args, [f"--audit-log={a.tmp.name}/audit.log"])
                self.assertEqual(b.extra_args, [])
            finally:
                a.tmp.cleanup()
                b.tmp.cleanup()

    def test_options_keep_each_sides_arguments_apart(self):
        from lt import options

        args = options.parse(
            ["--server-arg=--audit-log={tmp}/a.log", "--server-arg=--audit-required", "--baseline-server-arg=--x"]
        )
        self.assertEqual(args.server_arg, ["--audit-log={tmp}/a.log", "--audit-required"])
        self.assertEqual(args.baseline_server_arg, ["--x"])

    def test_report_names_the_extra_arguments(self):
        text = sbs_report.server_args_text({"server_args": {"cipherd": ["--audit-required"], "baseline": []}})
        self.assertIn("cipherd: `--audit-required`", text)
        self.assertEqual(sbs_report.server_args_text({}), "")
