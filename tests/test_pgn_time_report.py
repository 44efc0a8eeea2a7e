#!/usr/bin/env python3
"""tools/pgn_time_report.py on a two-game fixture: one game whose clock must be rebuilt from the
TimeControl tag as fastchess keeps it (1+0.1, an increment before the first move too: alpha
1.1 - 0.3 + 0.1 - 0.4 + 0.1 = 0.6 s, beta 1.0 s) and one whose
comments carry the clock (tl=), with book moves and a loss on time."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "pgn_time_report.py"
FIXTURE = ROOT / "tests" / "data" / "pgn" / "time_use.pgn"


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)],
                          capture_output=True, text=True, check=False)


class PgnTimeReport(unittest.TestCase):
    def assert_report(self, pgn, lines):
        result = run(pgn)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines(), lines)

    def test_rebuilt_and_recorded_clocks(self):
        self.assert_report(FIXTURE, [
            "alpha: 2 games, 3 moves, 0.317 s a move; clock left at the end median 0.80 s, "
            "least 0.60 s (1 of 2 games rebuilt from the time control); time losses 0",
            "beta: 2 games, 3 moves, 0.400 s a move; clock left at the end median 0.70 s, "
            "least 0.40 s (1 of 2 games rebuilt from the time control); time losses 1",
        ])

    def test_time_odds_rebuild_each_side_from_its_own_control(self):
        # alpha at 1+0.1: 1.1 - 0.3 + 0.1 - 0.4 + 0.1 = 0.6 s; beta at 0.5+0.05 (fastchess's
        # tags for a match at time odds): 0.55 - 0.2 + 0.05 - 0.1 + 0.05 = 0.35 s.
        with tempfile.TemporaryDirectory() as folder:
            odds = Path(folder) / "odds.pgn"
            odds.write_text(
                '[White "alpha"]\n[Black "beta"]\n[Result "1/2-1/2"]\n'
                '[WhiteTimeControl "1+0.1"]\n[BlackTimeControl "0.5+0.05"]\n\n'
                '1. e4 {+0.10/5 0.300s} e5 {-0.10/5 0.200s} 2. Nf3 {+0.20/6 0.400s}\n'
                'Nc6 {-0.20/6 0.100s} 1/2-1/2\n', encoding="utf-8")
            self.assert_report(odds, [
                "alpha: 1 games, 2 moves, 0.350 s a move; clock left at the end median 0.60 s, "
                "least 0.60 s (rebuilt from the time control); time losses 0",
                "beta: 1 games, 2 moves, 0.150 s a move; clock left at the end median 0.35 s, "
                "least 0.35 s (rebuilt from the time control); time losses 0",
            ])

    def test_pgn_without_times_is_an_error(self):
        with tempfile.TemporaryDirectory() as folder:
            bare = Path(folder) / "bare.pgn"
            bare.write_text('[White "a"]\n[Black "b"]\n\n1. e4 e5 1/2-1/2\n', encoding="utf-8")
            result = run(bare)
        self.assertEqual(result.returncode, 1)
        self.assertIn("error: no move times found", result.stderr)

    def test_usage(self):
        bare = run()
        self.assertEqual(bare.returncode, 2)
        self.assertIn("usage:", bare.stderr)

    def test_missing_file_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as folder:
            result = run(Path(folder) / "absent.pgn")
        self.assertEqual(result.returncode, 1)
        self.assertIn("error: cannot read", result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    def test_help(self):
        helped = run("--help")
        self.assertEqual(helped.returncode, 0)
        self.assertIn("usage:", helped.stdout)


if __name__ == "__main__":
    unittest.main()
