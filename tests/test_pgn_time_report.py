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
    def test_rebuilt_and_recorded_clocks(self):
        result = run(FIXTURE)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines(), [
            "alpha: 2 games, 3 moves, 0.317 s a move; clock left at the end median 0.80 s, "
            "least 0.60 s (1 of 2 games rebuilt from the time control); time losses 0",
            "beta: 2 games, 3 moves, 0.400 s a move; clock left at the end median 0.70 s, "
            "least 0.40 s (1 of 2 games rebuilt from the time control); time losses 1",
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
