#!/usr/bin/env python3
"""How late a UCI engine answers a fixed-time search: the scheduling delay a time manager's
reserve must cover.

Sends `go movetime T` N times (over three positions, Move Overhead 0) and prints by how much
the wall time from `go` to `bestmove` exceeded T: median, 90th and 99th percentile, maximum.
Run it beside a load (a match, a build, busy loops) to see the delay a loaded machine adds.

    tools/measure_latency.py build/release/tessera [--searches 200] [--movetime 30]

An engine that does not answer within --timeout seconds is reported and stopped.
"""
import argparse
import statistics
import sys
import time

from uci_engine import Engine, EngineError

POSITIONS = [
    "startpos",
    "fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
]


def measure(args) -> list:
    engine = Engine(args.engine, args.timeout)
    try:
        engine.send("uci")
        engine.wait_for("uciok", "uci")
        engine.send("setoption name Move Overhead value 0")
        late = []
        for i in range(args.searches):
            engine.send("position " + POSITIONS[i % len(POSITIONS)])
            engine.send("isready")
            engine.wait_for("readyok", "isready")
            start = time.perf_counter()
            engine.send(f"go movetime {args.movetime}")
            engine.wait_for("bestmove", f"go movetime {args.movetime}")
            late.append((engine.arrived - start) * 1000 - args.movetime)
        return late
    finally:
        engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--movetime", type=int, default=30, help="ms")
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds to wait for any one answer (default 60)")
    args = parser.parse_args()
    if args.searches < 1 or args.movetime < 0:
        parser.error("--searches must be at least 1 and --movetime not negative")
    try:
        late = sorted(measure(args))
    except EngineError as e:
        sys.exit(f"error: {e}")
    n = len(late)
    print(f"{n} searches of {args.movetime} ms: late by median {statistics.median(late):.2f} ms, "
          f"p90 {late[int(0.9 * (n - 1))]:.2f}, p99 {late[int(0.99 * (n - 1))]:.2f}, "
          f"max {late[-1]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
