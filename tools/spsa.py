#!/usr/bin/env python3
"""Local SPSA tuning of Tessera's tunable constants with fastchess, resumable.

The algorithm is the one OpenBench runs (simultaneous perturbation stochastic approximation):
at iteration k every selected constant is perturbed by +c_k or -c_k at once (a random sign
each), the engine with theta + c_k*delta plays the engine with theta - c_k*delta a few game
pairs from UHO openings (each opening with both colours), and every constant moves by
a_k * (wins - losses) / (c_k * delta_i). The schedules are OpenBench's, from each constant's
c_end and r_end (the spec `tessera spsa` prints): with N iterations, A = N / 10,
alpha = 0.602, gamma = 0.101, c = c_end * N^gamma, a_end = r_end * c_end^2,
a = a_end * (A + N)^alpha; c_k = c / k^gamma, a_k = a / (A + k)^alpha.

The state (values, iteration, results) is written to --state after every iteration, so a run
stopped at any point continues where it stopped when started again with the same --state.

    tools/spsa.py --engine build/tune/tessera --params LmrBasePct,RazorMargin,... \\
        --iterations 2000 --tc 8+0.08 --state /root/tessera-data/spsa-state.json

Prints, every --report iterations, the values (with their change from the defaults) and an
Elo estimate of the plus side against the minus side over the last --report iterations: the
size of the signal the perturbations find, which shrinks as the values settle. The tuned
values are adopted only after an SPRT against the defaults (docs/measurements.md).
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101
SPEC = re.compile(r"^(\w+), int, (-?\d+), (-?\d+), (-?\d+), ([0-9.]+), ([0-9.]+)$")
RESULT = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")
# fastchess ends a game as stalled or disconnected when an engine stops answering in time: the
# machine's doing (a suspended or starved process), not the constants'. Such an iteration's
# games are played again, up to ATTEMPTS times in all, instead of counting a loss that nobody
# played or ending the run.
STALLED = re.compile(r"^Finished game .*\{[^}]*(stall|disconnect)[^}]*\}",
                     re.IGNORECASE | re.MULTILINE)
ATTEMPTS = 3


def read_spec(engine):
    """The engine's SPSA spec: {name: (value, min, max, c_end, r_end)}."""
    text = subprocess.run([engine, "spsa", "quit"], capture_output=True, text=True,
                          check=True).stdout
    spec = {}
    for line in text.splitlines():
        m = SPEC.match(line.strip())
        if m:
            spec[m[1]] = (int(m[2]), int(m[3]), int(m[4]), float(m[5]), float(m[6]))
    if not spec:
        raise SystemExit(f"error: {engine} printed no SPSA spec (`spsa`): is it a tune build?")
    return spec


def schedules(param, k, iterations):
    _, _, _, c_end, r_end = param
    big_a = iterations / 10
    c = c_end * iterations ** GAMMA
    a = r_end * c_end ** 2 * (big_a + iterations) ** ALPHA
    return c / k ** GAMMA, a / (big_a + k) ** ALPHA


def elo(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def play(args, plus, minus, seed):
    """Plays --pairs game pairs, plus against minus; returns (wins, losses, draws) of plus."""
    def engine(name, values):
        opts = [f"option.{k}={v}" for k, v in values.items()]
        return ["-engine", f"cmd={args.engine}", f"name={name}"] + opts

    cmd = [args.fastchess, *engine("plus", plus), *engine("minus", minus),
           "-each", f"tc={args.tc}", "option.Hash=16", "option.Threads=1",
           "-openings", f"file={args.book}", "format=epd", "order=random", "-srand", str(seed),
           "-rounds", str(args.pairs), "-games", "2", "-repeat",
           "-concurrency", str(args.concurrency),
           "-draw", "movenumber=40", "movecount=8", "score=10",
           "-resign", "movecount=3", "score=600"]
    if args.nodes:
        cmd[cmd.index(f"tc={args.tc}")] = "tc=inf"
        cmd.insert(cmd.index("option.Hash=16"), f"nodes={args.nodes}")
    # fastchess leaves its config.json in the working directory: keep it beside the state.
    out = subprocess.run(cmd, capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.abspath(args.state))).stdout
    found = RESULT.findall(out)
    if not found:
        raise RuntimeError("fastchess reported no result:\n" + out[-2000:])
    if STALLED.search(out):
        raise RuntimeError("an engine stalled or disconnected:\n" + out[-2000:])
    _, wins, losses, draws = map(int, found[-1])
    warnings = [line for line in out.splitlines() if "warning" in line.lower()]
    return wins, losses, draws, warnings


def play_again_on_failure(args, plus, minus, seed):
    """play(), again with the same engines and openings when fastchess fails or a game stalls;
    ends the run (the state holds every iteration before) after ATTEMPTS failures."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return play(args, plus, minus, seed)
        except (RuntimeError, OSError) as error:
            failure = str(error)
            print(f"spsa: attempt {attempt} of {ATTEMPTS} failed: {failure}", file=sys.stderr)
            sys.stderr.flush()
    raise SystemExit(f"error: the games of one iteration failed {ATTEMPTS} times (last: "
                     f"{failure.splitlines()[0]}); every iteration before it is in the state "
                     "file: start the same command again to resume")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="a tune build of tessera")
    parser.add_argument("--params", required=True,
                        help="comma-separated names to tune (the rest keep their values)")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=1, help="game pairs an iteration")
    parser.add_argument("--tc", default="8+0.08")
    parser.add_argument("--nodes", type=int, default=0, help="fixed nodes instead of a clock")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--book", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                       "shared", "data", "openings",
                                                       "UHO_4060_v4.epd"))
    parser.add_argument("--fastchess", default="fastchess")
    parser.add_argument("--state", required=True, help="JSON file: the run, resumable")
    parser.add_argument("--report", type=int, default=25, help="iterations between reports")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.engine = os.path.abspath(args.engine)
    args.book = os.path.abspath(args.book)

    spec = read_spec(args.engine)
    names = [n for n in args.params.split(",") if n]
    unknown = [n for n in names if n not in spec]
    if unknown:
        raise SystemExit(f"error: no tunable named {', '.join(unknown)}")
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if sorted(state["theta"]) != sorted(names):
            raise SystemExit(f"error: {args.state} tunes {sorted(state['theta'])}, not these")
        print(f"resuming at iteration {state['k'] + 1} of {state['iterations']}")
    else:
        state = {"iterations": args.iterations, "k": 0, "seed": args.seed,
                 "theta": {n: float(spec[n][0]) for n in names}, "results": []}
    rng = random.Random(f"{state['seed']}-{state['k']}")
    iterations = state["iterations"]

    while state["k"] < iterations:
        k = state["k"] + 1
        delta = {n: rng.choice((-1, 1)) for n in names}
        plus, minus, steps = {}, {}, {}
        for n in names:
            value, lo, hi = spec[n][0], spec[n][1], spec[n][2]
            c_k, a_k = schedules(spec[n], k, iterations)
            steps[n] = (c_k, a_k)
            theta = state["theta"][n]
            plus[n] = int(round(min(max(theta + c_k * delta[n], lo), hi)))
            minus[n] = int(round(min(max(theta - c_k * delta[n], lo), hi)))
        wins, losses, draws, warnings = play_again_on_failure(args, plus, minus,
                                                              state["seed"] * 1_000_003 + k)
        if warnings:
            print("fastchess:", *warnings, sep="\n  ", file=sys.stderr)
        for n in names:
            c_k, a_k = steps[n]
            lo, hi = spec[n][1], spec[n][2]
            moved = state["theta"][n] + a_k * (wins - losses) / (c_k * delta[n])
            state["theta"][n] = min(max(moved, lo), hi)
        state["results"].append([wins, losses, draws])
        state["k"] = k
        tmp = tempfile.NamedTemporaryFile("w", dir=os.path.dirname(os.path.abspath(args.state)),
                                          delete=False)
        json.dump(state, tmp, indent=1)
        tmp.close()
        os.replace(tmp.name, args.state)

        if k % args.report == 0 or k == iterations:
            recent = state["results"][-args.report:]
            w, l, d = (sum(r[i] for r in recent) for i in range(3))
            games = max(w + l + d, 1)
            print(f"iteration {k}/{iterations}: plus against minus over the last {len(recent)}: "
                  f"+{w} ={d} -{l}, {elo((w + d / 2) / games):+.1f} Elo")
            for n in names:
                t = state["theta"][n]
                print(f"  {n:24s} {t:9.2f} ({t - spec[n][0]:+.2f} from {spec[n][0]})")
            sys.stdout.flush()
    print("final values (setoption lines):")
    for n in names:
        print(f"setoption name {n} value {int(round(state['theta'][n]))}")


if __name__ == "__main__":
    main()
