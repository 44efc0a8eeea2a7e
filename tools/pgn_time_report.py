#!/usr/bin/env python3
"""Time use per engine from a fastchess PGN written with `-pgnout file=F timeleft=true`.

For each engine: games, moves searched, mean time a move, the clock left after its last move
of each game (median, least), and games lost on time. A clock that ends games far above the
opponent's is time that was never spent.

    tools/pgn_time_report.py games.pgn
"""
import re
import statistics
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]')
# A move's comment: {+0.31/14 0.212s, tl=4.120s} (score/depth, time spent, time left).
COMMENT = re.compile(r"\{[^}]*?([0-9.]+)s,\s*tl=(-?[0-9.]+)s[^}]*\}")


def games(path):
    tags, moves = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if moves:
                    yield tags, " ".join(moves)
                    tags, moves = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                moves.append(line.strip())
    if tags:
        yield tags, " ".join(moves)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    spent = defaultdict(list)
    left_at_end = defaultdict(list)
    time_losses = defaultdict(int)
    for tags, text in games(sys.argv[1]):
        start_white = tags.get("FEN", "").split(" ")[1:2] != ["b"]
        last = {}
        # Every ply has a comment (book moves "{book}"), so a comment's index is its ply.
        for ply, comment in enumerate(re.findall(r"\{[^}]*\}", text)):
            m = COMMENT.match(comment)
            if not m:
                continue
            side = "White" if (ply % 2 == 0) == start_white else "Black"
            name = tags.get(side, side)
            spent[name].append(float(m.group(1)))
            last[name] = float(m.group(2))
        for name, tl in last.items():
            left_at_end[name].append(tl)
        term = tags.get("Termination", "")
        if "time" in term.lower():
            loser = tags["White"] if tags.get("Result") == "0-1" else tags["Black"]
            time_losses[loser] += 1
    if not spent:
        print("error: no move times found (was the PGN written with timeleft=true?)",
              file=sys.stderr)
        return 1
    for name in sorted(spent):
        ends = left_at_end[name]
        print(f"{name}: {len(ends)} games, {len(spent[name])} moves, "
              f"{statistics.mean(spent[name]):.3f} s a move; clock left at the end "
              f"median {statistics.median(ends):.2f} s, least {min(ends):.2f} s; "
              f"time losses {time_losses[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
