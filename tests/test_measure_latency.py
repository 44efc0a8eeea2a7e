#!/usr/bin/env python3
"""tools/measure_latency.py against stand-in UCI programs: one that answers each `go movetime`
a known 20 ms late (the report must show about that), one that answers isready but never a
search (it must be reported after --timeout, not waited on), one that exits at once and a path
that does not exist."""
import re
import unittest

from stand_in_programs import EXITING, SILENT, StandInTest

# Answers `go movetime T` after T + %d ms; %s is the answer to `go`, or nothing at all.
LATE = """
import sys, time
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["uci"]:
        print("uciok", flush=True)
    elif words[:1] == ["isready"]:
        print("readyok", flush=True)
    elif words[:2] == ["go", "movetime"]:
        time.sleep((int(words[2]) + %d) / 1000)
        %s
    elif words[:1] == ["quit"]:
        break
"""
ANSWER = 'print("bestmove e2e4", flush=True)'


class MeasureLatency(StandInTest):
    tool = "measure_latency.py"

    def test_lateness_of_the_answers_is_reported(self):
        late = self.program("late", LATE % (20, ANSWER))
        result = self.run_tool(late, "--searches", "5", "--movetime", "10")
        self.assertEqual(result.returncode, 0, result.stderr)
        match = re.fullmatch(r"5 searches of 10 ms: late by median ([0-9.]+) ms, p90 [0-9.]+, "
                             r"p99 [0-9.]+, max ([0-9.]+)\n", result.stdout)
        self.assertIsNotNone(match, result.stdout)
        median, most = float(match[1]), float(match[2])
        self.assertGreaterEqual(median, 20.0)  # a sleep never ends early
        self.assertGreaterEqual(most, median)

    def test_search_without_answer_times_out(self):
        mute = self.program("mute", LATE % (0, "pass"))
        result = self.run_tool(mute, "--searches", "3", "--timeout", "0.5")
        self.assert_clear_error(result, "gave no answer to go movetime 30 within 0.5 s")

    def test_silent_program_times_out(self):
        result = self.run_tool(self.program("silent", SILENT), "--timeout", "0.5")
        self.assert_clear_error(result, "gave no answer to uci within 0.5 s")

    def test_program_exiting_at_once_is_reported(self):
        result = self.run_tool(self.program("exiting", EXITING), "--timeout", "20")
        self.assert_clear_error(result, "exited before answering")

    def test_missing_program_is_a_clear_error(self):
        result = self.run_tool(self.absent())
        self.assert_clear_error(result, "error: cannot start")

    def test_no_searches_is_a_usage_error(self):
        result = self.run_tool(self.program("late", LATE % (0, ANSWER)), "--searches", "0")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--searches must be at least 1", result.stderr)


if __name__ == "__main__":
    unittest.main()
