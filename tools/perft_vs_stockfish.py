#!/usr/bin/env python3
"""Perft speed of Tessera against Stockfish, side by side in one run.

Usage: tools/perft_vs_stockfish.py [TESSERA] [STOCKFISH]
Times `go perft 6` at the start position and `go perft 5` on Kiwipete in both engines (each
through its UCI interface, the clock running from the command to the `Nodes searched` line),
best of three, and prints the node counts, times and the speed ratio.
"""
import subprocess
import sys
import time

POSITIONS = [
    ("startpos", "startpos", 6),
    ("kiwipete", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]


def timed_perft(binary, position, depth):
    try:
        proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        sys.exit(f"error: cannot start {binary}: {e.strerror or e}")
    proc.stdin.write("uci\nisready\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.strip() == "readyok":
            break
    proc.stdin.write(f"position {position}\n")
    start = time.perf_counter()
    proc.stdin.write(f"go perft {depth}\n")
    proc.stdin.flush()
    nodes = None
    for line in proc.stdout:
        if line.startswith("Nodes searched"):
            nodes = int(line.split(":")[1])
            break
    elapsed = time.perf_counter() - start
    if nodes is None:
        sys.exit(f"error: {binary} gave no 'Nodes searched' line for perft {depth}")
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return nodes, elapsed


def main():
    tessera = sys.argv[1] if len(sys.argv) > 1 else "build/release/tessera"
    stockfish = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/stockfish"
    for name, position, depth in POSITIONS:
        results = {}
        for label, binary in (("tessera", tessera), ("stockfish", stockfish)):
            try:
                runs = [timed_perft(binary, position, depth) for _ in range(3)]
            except BrokenPipeError:
                sys.exit(f"error: {binary} exited before answering (not a UCI engine?)")
            nodes = runs[0][0]
            if any(r[0] != nodes for r in runs):
                sys.exit(f"{label}: node counts differ between runs")
            results[label] = (nodes, min(r[1] for r in runs))
        (tn, tt), (sn, st) = results["tessera"], results["stockfish"]
        if tn != sn:
            sys.exit(f"{name}: node counts differ: tessera {tn}, stockfish {sn}")
        print(f"{name} perft {depth}: {tn} nodes; tessera {tt:.3f} s ({tn / tt / 1e6:.0f} Mnps), "
              f"stockfish {st:.3f} s ({sn / st / 1e6:.0f} Mnps); ratio {st / tt:.2f}x")


if __name__ == "__main__":
    main()
