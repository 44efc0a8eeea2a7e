#!/usr/bin/env python3
"""tools/perft_vs_stockfish.py against stand-in UCI programs: two that agree, two that disagree,
one that never answers (it must be reported after --timeout, not waited on), one that exits at
once and a path that does not exist."""
import unittest

from stand_in_programs import EXITING, SILENT, StandInTest

ANSWERING = """
import sys
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["isready"]:
        print("readyok", flush=True)
    elif words[:2] == ["go", "perft"]:
        print(f"Nodes searched: {int(words[2]) * %d}", flush=True)
    elif words[:1] == ["quit"]:
        break
"""


class PerftVsStockfish(StandInTest):
    tool = "perft_vs_stockfish.py"

    def test_agreeing_programs_give_a_ratio_per_position(self):
        first = self.program("first", ANSWERING % 1000)
        second = self.program("second", ANSWERING % 1000)
        result = self.run_tool(first, second)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(len(lines), 2)
        self.assertTrue(lines[0].startswith("startpos perft 6: 6000 nodes;"), lines[0])
        self.assertTrue(lines[1].startswith("kiwipete perft 5: 5000 nodes;"), lines[1])
        self.assertTrue(all("ratio" in line for line in lines))

    def test_disagreeing_counts_are_an_error(self):
        result = self.run_tool(self.program("first", ANSWERING % 1000),
                               self.program("second", ANSWERING % 999))
        self.assertEqual(result.returncode, 1)
        self.assertIn("error: startpos: node counts differ", result.stderr)

    def test_silent_program_times_out(self):
        result = self.run_tool(self.program("silent", SILENT),
                               self.program("second", ANSWERING % 1000), "--timeout", "0.5")
        self.assert_clear_error(result, "gave no answer to isready within 0.5 s")

    def test_program_exiting_at_once_is_reported(self):
        result = self.run_tool(self.program("exiting", EXITING),
                               self.program("second", ANSWERING % 1000), "--timeout", "20")
        self.assert_clear_error(result, "exited before answering")

    def test_missing_program_is_a_clear_error(self):
        result = self.run_tool(self.absent(), "/bin/true")
        self.assert_clear_error(result, "error: cannot start")


if __name__ == "__main__":
    unittest.main()
