#!/usr/bin/env python3
"""How late a UCI engine answers a fixed-time search: the scheduling delay a time manager's
reserve must cover.

Sends `go movetime T` N times (over three positions, Move Overhead 0) and prints by how much
the wall time from `go` to `bestmove` exceeded T: median, 90th and 99th percentile, maximum.
Run it beside a load (a match, a build, busy loops) to see the delay a loaded machine adds.

    tools/measure_latency.py build/release/tessera [--searches 200] [--movetime 30]
"""
import argparse
import statistics
import subprocess
import time

POSITIONS = [
    "startpos",
    "fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--movetime", type=int, default=30, help="ms")
    args = parser.parse_args()

    try:
        proc = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, bufsize=1)
    except OSError as e:
        raise SystemExit(f"error: cannot start {args.engine}: {e.strerror or e}")

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait_for(prefix: str) -> str:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit(f"error: the engine exited before sending '{prefix}'")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    send("setoption name Move Overhead value 0")
    late = []
    for i in range(args.searches):
        send("position " + POSITIONS[i % len(POSITIONS)])
        send("isready")
        wait_for("readyok")
        start = time.perf_counter()
        send(f"go movetime {args.movetime}")
        wait_for("bestmove")
        late.append((time.perf_counter() - start) * 1000 - args.movetime)
    send("quit")
    proc.wait(timeout=10)
    late.sort()
    n = len(late)
    print(f"{n} searches of {args.movetime} ms: late by median {statistics.median(late):.2f} ms, "
          f"p90 {late[int(0.9 * (n - 1))]:.2f}, p99 {late[int(0.99 * (n - 1))]:.2f}, "
          f"max {late[-1]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
