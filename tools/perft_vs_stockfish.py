#!/usr/bin/env python3
"""Perft speed of Tessera against Stockfish, side by side in one run.

Times `go perft 6` at the start position and `go perft 5` on Kiwipete in both engines (each
through its UCI interface, the clock running from the command to the `Nodes searched` line),
best of three, and prints the node counts, times and the speed ratio. A program that does not
answer within --timeout seconds is reported and stopped rather than waited on for ever.
"""
import argparse
import sys
import time

from uci_engine import Engine, EngineError

POSITIONS = [
    ("startpos", "startpos", 6),
    ("kiwipete", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]


def timed_perft(binary, position, depth, timeout):
    engine = Engine(binary, timeout)
    try:
        engine.send("uci")
        engine.send("isready")
        engine.wait_for("readyok", "isready")
        engine.send(f"position {position}")
        start = time.perf_counter()
        engine.send(f"go perft {depth}")
        line = engine.wait_for("Nodes searched", f"go perft {depth}")
        elapsed = engine.arrived - start
        try:
            nodes = int(line.split(":")[1])
        except (IndexError, ValueError):
            raise EngineError(f"{binary} gave an unreadable line: {line.strip()}") from None
        return nodes, elapsed
    finally:
        engine.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tessera", nargs="?", default="build/release/tessera")
    parser.add_argument("stockfish", nargs="?", default="/usr/games/stockfish")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds to wait for any one answer (default 600)")
    args = parser.parse_args()
    try:
        for name, position, depth in POSITIONS:
            results = {}
            for label, binary in (("tessera", args.tessera), ("stockfish", args.stockfish)):
                runs = [timed_perft(binary, position, depth, args.timeout) for _ in range(3)]
                nodes = runs[0][0]
                if any(r[0] != nodes for r in runs):
                    sys.exit(f"error: {label}: node counts differ between runs")
                results[label] = (nodes, min(r[1] for r in runs))
            (tn, tt), (sn, st) = results["tessera"], results["stockfish"]
            if tn != sn:
                sys.exit(f"error: {name}: node counts differ: tessera {tn}, stockfish {sn}")
            print(f"{name} perft {depth}: {tn} nodes; tessera {tt:.3f} s "
                  f"({tn / tt / 1e6:.0f} Mnps), stockfish {st:.3f} s ({sn / st / 1e6:.0f} Mnps); "
                  f"ratio {st / tt:.2f}x")
    except EngineError as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    main()
