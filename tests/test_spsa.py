#!/usr/bin/env python3
"""tools/spsa.py against a stand-in engine (which only prints its tuning spec) and a stand-in
fastchess whose behaviour on each call is scripted: a game that stalls, or a tournament that
reports nothing, is played again and never counted; a run whose games keep failing stops with
a clear error, and the state keeps every iteration before the failure."""
import json
import unittest
from pathlib import Path

from stand_in_programs import StandInTest

ENGINE = """
import sys
if sys.argv[1:] == ["spsa", "quit"]:
    print("Margin, int, 100, 0, 200, 10.0, 0.002")
"""

# Plays the call's scripted outcome: "ok" (plus wins both games), "stall" (a game ends stalled,
# as fastchess reports an engine that stopped answering) or "none" (no result at all). The
# script is one word per call in fastchess-script.txt; calls are counted in fastchess-calls.txt.
FASTCHESS = """
import pathlib
here = pathlib.Path(__file__).parent
calls = here / "fastchess-calls.txt"
n = int(calls.read_text()) if calls.exists() else 0
calls.write_text(str(n + 1))
script = (here / "fastchess-script.txt").read_text().split()
outcome = script[min(n, len(script) - 1)]
if outcome == "ok":
    print("Finished game 1 (plus vs minus): 1-0 {White mates}")
    print("Finished game 2 (minus vs plus): 0-1 {Black mates}")
    print("Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)")
elif outcome == "stall":
    print("Finished game 1 (plus vs minus): 1/2-1/2 {Draw by 3-fold repetition}")
    print("Finished game 2 (minus vs plus): 0-1 {White's connection stalls}")
    print("Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)")
else:
    print("Tournament was interrupted.")
"""


class Spsa(StandInTest):
    tool = "spsa.py"

    def run_spsa(self, script, iterations):
        folder = Path(self.folder.name)
        (folder / "fastchess-script.txt").write_text(" ".join(script), encoding="utf-8")
        state = folder / "state.json"
        result = self.run_tool("--engine", self.program("engine", ENGINE), "--params", "Margin",
                               "--iterations", iterations, "--nodes", 1000, "--book", "/dev/null",
                               "--fastchess", self.program("fastchess", FASTCHESS),
                               "--state", state, "--report", 1)
        calls = int((folder / "fastchess-calls.txt").read_text())
        saved = json.loads(state.read_text()) if state.exists() else None
        return result, calls, saved

    def test_a_stalled_or_silent_iteration_is_played_again(self):
        result, calls, saved = self.run_spsa(["stall", "ok", "none", "ok"], 2)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(calls, 4)
        self.assertEqual(saved["k"], 2)
        # Only the games played to the end count: plus won both, twice.
        self.assertEqual(saved["results"], [[2, 0, 0], [2, 0, 0]])
        self.assertIn("attempt 1 of 3 failed: an engine stalled", result.stderr)
        self.assertIn("attempt 1 of 3 failed: fastchess reported no result", result.stderr)

    def test_games_that_keep_failing_end_the_run_with_the_state_kept(self):
        result, calls, saved = self.run_spsa(["ok", "stall"], 3)
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(calls, 1 + 3)
        self.assertIn("error: the games of one iteration failed 3 times", result.stderr)
        self.assertEqual(saved["k"], 1)
        self.assertEqual(saved["results"], [[2, 0, 0]])


if __name__ == "__main__":
    unittest.main()
