"""Support for the tests of the UCI tools in tools/: each test writes small stand-in programs
(Python scripts made executable in a temporary folder) and runs a tool against them."""
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Never answers: reads one line, then sleeps past any timeout a test gives the tool.
SILENT = """
import sys, time
sys.stdin.readline()
time.sleep(120)
"""
EXITING = "pass\n"


class StandInTest(unittest.TestCase):
    tool = None  # the script under tools/ that a test class runs

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def program(self, name, body):
        path = Path(self.folder.name) / name
        path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        return path

    def absent(self):
        return Path(self.folder.name) / "absent"

    def run_tool(self, *args):
        return subprocess.run([sys.executable, str(ROOT / "tools" / self.tool), *map(str, args)],
                              capture_output=True, text=True, check=False, timeout=60)

    def assert_clear_error(self, result, message):
        self.assertEqual(result.returncode, 1)
        self.assertIn(message, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
