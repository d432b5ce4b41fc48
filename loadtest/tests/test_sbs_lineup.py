"""Which servers the side-by-side measures and in what order: --sbs-targets, --baseline-jar and the
round-by-round alternation of cipherd and its baseline (no server, no h2load)."""

import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import options  # noqa: E402
from lt.sidebyside import lineup, runner, shapes  # noqa: E402
from lt.sidebyside.lineup import BASELINE, CIPHERD, ECHO, VAULT  # noqa: E402

BY_NAME = {s.name: s for s in shapes.SHAPES}


def parse_error(argv) -> str:
    """argparse's message for a command line it refuses."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            options.parse(argv)
        except SystemExit:
            return err.getvalue()
    raise AssertionError(f"{argv} was accepted")


class LineupParseTest(unittest.TestCase):
    def test_default_is_every_server_and_the_baseline_only_with_its_jar(self):
        self.assertEqual(lineup.parse(None, with_baseline=False), (VAULT, ECHO, CIPHERD))
        self.assertEqual(lineup.parse(None, with_baseline=True), (VAULT, ECHO, CIPHERD, BASELINE))
        self.assertEqual(lineup.parse("all", with_baseline=True), (VAULT, ECHO, CIPHERD, BASELINE))

    def test_a_list_is_kept_in_the_canonical_order_with_vault_as_an_alias(self):
        self.assertEqual(lineup.parse("cipherd,cipherd-baseline,echo", with_baseline=True), (ECHO, CIPHERD, BASELINE))
        self.assertEqual(lineup.parse(" cipherd , vault ", with_baseline=False), (VAULT, CIPHERD))
        self.assertEqual(lineup.parse("vault-transit,cipherd,cipherd", with_baseline=False), (VAULT, CIPHERD))

    def test_refused_lineups(self):
        for text, with_baseline, needle in [
            ("cipherd,consul", False, "unknown side-by-side target(s) consul"),
            ("echo,vault", False, "must include cipherd"),
            ("cipherd,cipherd-baseline", False, "no --baseline-jar"),
            ("cipherd,echo", True, "leaves cipherd-baseline out"),
            ("", False, "must include cipherd"),
        ]:
            with self.assertRaises(ValueError) as e:
                lineup.parse(text, with_baseline)
            self.assertIn(needle, str(e.exception), text)


class OptionsTest(unittest.TestCase):
    def test_defaults_leave_the_baseline_out(self):
        a = options.parse(["--side-by-side-only"])
        self.assertIsNone(a.baseline_jar)
        self.assertEqual(a.sbs_targets, (VAULT, ECHO, CIPHERD))
        self.assertEqual(options.parse(["--preset", "smoke"]).sbs_targets, (VAULT, ECHO, CIPHERD))
        self.assertEqual(a.sbs_shapes, shapes.SHAPES)

    def test_sbs_shapes_narrows_the_sitting_and_refuses_an_unknown_shape(self):
        a = options.parse(["--side-by-side-only", "--sbs-shapes", "encrypt-batch-256,encrypt"])
        self.assertEqual([s.name for s in a.sbs_shapes], ["encrypt", "encrypt-batch-256"])
        self.assertIn(
            "unknown side-by-side shape(s) encrypt-batch-512", parse_error(["--sbs-shapes", "encrypt-batch-512"])
        )

    def test_baseline_jar_and_targets(self):
        with tempfile.NamedTemporaryFile(suffix=".jar") as jar:
            a = options.parse(["--side-by-side-only", "--baseline-jar", jar.name, "--sbs-rounds", "3"])
            self.assertEqual(a.baseline_jar, Path(jar.name).resolve())
            self.assertEqual(a.sbs_targets, (VAULT, ECHO, CIPHERD, BASELINE))
            a = options.parse(["--baseline-jar", jar.name, "--sbs-targets", "cipherd,cipherd-baseline,echo"])
            self.assertEqual(a.sbs_targets, (ECHO, CIPHERD, BASELINE))
            self.assertIn(
                "leaves cipherd-baseline out",
                parse_error(["--baseline-jar", jar.name, "--sbs-targets", "cipherd,echo"]),
            )
            self.assertIn("--no-side-by-side skips", parse_error(["--baseline-jar", jar.name, "--no-side-by-side"]))

    def test_a_missing_jar_or_bad_target_is_refused_at_parse_time(self):
        self.assertIn("no such file", parse_error(["--baseline-jar", "/nonexistent/cipherd.jar"]))
        self.assertIn("unknown side-by-side target(s) valt", parse_error(["--sbs-targets", "valt,cipherd"]))
        self.assertIn("no --baseline-jar", parse_error(["--sbs-targets", "cipherd,cipherd-baseline"]))


class OrderTest(unittest.TestCase):
    def test_cipherd_and_its_baseline_swap_places_every_round_next_to_each_other(self):
        servers = (VAULT, ECHO, CIPHERD, BASELINE)
        self.assertEqual(lineup.order(servers, 1), [VAULT, ECHO, CIPHERD, BASELINE])
        self.assertEqual(lineup.order(servers, 2), [VAULT, ECHO, BASELINE, CIPHERD])
        self.assertEqual(lineup.order(servers, 3), [VAULT, ECHO, CIPHERD, BASELINE])
        firsts = [lineup.order(servers, r)[2] for r in range(1, 7)]
        self.assertEqual(firsts.count(CIPHERD), firsts.count(BASELINE))

    def test_without_a_baseline_the_order_is_the_old_one_every_round(self):
        for rnd in (1, 2, 3):
            self.assertEqual(lineup.order((VAULT, ECHO, CIPHERD), rnd), [VAULT, ECHO, CIPHERD])
        self.assertEqual(lineup.order((ECHO, CIPHERD, BASELINE), 2), [ECHO, BASELINE, CIPHERD])

    def test_vault_runs_only_the_shapes_transit_has(self):
        stream, enc = BY_NAME["reencrypt-stream-256"], BY_NAME["encrypt"]
        self.assertEqual(lineup.for_shape(stream, (VAULT, ECHO, CIPHERD, BASELINE)), (ECHO, CIPHERD, BASELINE))
        self.assertEqual(lineup.for_shape(enc, (VAULT, ECHO, CIPHERD, BASELINE)), (VAULT, ECHO, CIPHERD, BASELINE))
        self.assertEqual(lineup.for_shape(enc), (VAULT, ECHO, CIPHERD))

    def test_the_report_notes_the_order_and_leaves_vault_notes_out_without_vault(self):
        with_vault = runner.notes((VAULT, ECHO, CIPHERD, BASELINE))
        self.assertIn(
            "vault-transit, echo, cipherd, cipherd-baseline back to back; cipherd and cipherd-baseline "
            "swap places every round",
            with_vault[-1],
        )
        without = runner.notes((ECHO, CIPHERD, BASELINE))
        self.assertFalse([n for n in without if n.startswith("Vault")])
        self.assertEqual(len(with_vault) - len(without), 1)
        self.assertNotIn("swap", runner.notes((VAULT, ECHO, CIPHERD))[-1])


if __name__ == "__main__":
    unittest.main()
