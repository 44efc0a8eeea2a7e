"""A UCI program driven from a hand-run tool, with a bound on every wait.

The program's output is read on a thread into a queue, so that a program which starts but never
answers is reported after `timeout` seconds (EngineError) instead of being waited on for ever;
an exit or a closed pipe is an EngineError too. Shared by the standalone tools in tools/.
"""
import queue
import subprocess
import threading
import time


class EngineError(Exception):
    pass


class Engine:
    """One UCI program, started at construction and stopped by close()."""

    def __init__(self, binary, timeout):
        self.binary, self.timeout = str(binary), timeout
        try:
            self.proc = subprocess.Popen([self.binary], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                         text=True)
        except OSError as e:
            raise EngineError(f"cannot start {self.binary}: {e.strerror or e}") from e
        self.lines = queue.Queue()
        self.arrived = 0.0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line))
        self.lines.put((time.perf_counter(), None))

    def send(self, text):
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError as e:
            raise EngineError(f"{self.binary} exited before answering (not a UCI engine?)") from e

    def wait_for(self, wanted, what):
        """The first line starting with `wanted`, or EngineError on exit or timeout. The
        `perf_counter` time at which the reader thread received it is kept in `arrived`, so
        that a timing does not include the hand-over between threads."""
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                self.arrived, line = self.lines.get(timeout=max(left, 0))
            except queue.Empty:
                raise EngineError(f"{self.binary} gave no answer to {what} "
                                  f"within {self.timeout:g} s") from None
            if line is None:
                raise EngineError(f"{self.binary} exited before answering {what}")
            if line.startswith(wanted):
                return line

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
