#!/usr/bin/env python3
"""Time use per engine from a fastchess PGN.

For each engine: games, moves searched, mean time a move, the clock left after its last move
of each game (median, least), and games lost on time. A clock that ends games far above the
opponent's is time that was never spent.

The clock is read from the comments of a PGN written with `-pgnout file=F timeleft=true`. A PGN
written without it (as `../shared/tools/gauntlet.sh` writes them) has only the time spent on
each move; the clock is then rebuilt from the `TimeControl` tag (base + increment, seconds) as
fastchess keeps it: the base plus one increment at the start, less each move's time, plus the
increment after it. On 396 games written with timeleft=true the rebuilt clock at the end equals
the recorded one to the millisecond. The report says which kind it printed. When the engines
play at different controls (time odds), fastchess writes `WhiteTimeControl` and
`BlackTimeControl` instead, and each side's clock is rebuilt from its own.
"""
import argparse
import re
import statistics
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]')
# A move's comment: {+0.31/14 0.212s, tl=4.120s} (score/depth, time spent, time left); without
# timeleft=true the comment ends at the time spent: {+0.31/14 0.212s}.
COMMENT = re.compile(r"\{[^}]*?\s([0-9.]+)s(?:,\s*tl=(-?[0-9.]+)s)?[^}]*\}")
# A sudden-death control with an increment, as fastchess writes it: 10+0.1 (seconds).
TIME_CONTROL = re.compile(r"^([0-9.]+)\+([0-9.]+)$")


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


def control_of(tags, side):
    """(base, increment) in seconds of one side's control, or None: the side's own tag
    (`WhiteTimeControl`, a match at time odds) before the common `TimeControl`."""
    control = TIME_CONTROL.match(tags.get(side + "TimeControl", tags.get("TimeControl", "")))
    return (float(control.group(1)), float(control.group(2))) if control else None


def clocks_at_end(tags, text, spent):
    """Each side's clock after its last move; appends every move's time to `spent`.

    Returns ({name: seconds}, rebuilt) where rebuilt says the clock came from the TimeControl tag
    rather than from the comments; ({}, False) when a game has neither.
    """
    start_white = tags.get("FEN", "").split(" ")[1:2] != ["b"]
    controls = {side: control_of(tags, side) for side in ("White", "Black")}
    last, rebuilt = {}, {}
    # Every ply has a comment (book moves "{book}"), so a comment's index is its ply.
    for ply, comment in enumerate(re.findall(r"\{[^}]*\}", text)):
        m = COMMENT.match(comment)
        if not m:
            continue
        side = "White" if (ply % 2 == 0) == start_white else "Black"
        name = tags.get(side, side)
        used = float(m.group(1))
        spent[name].append(used)
        if m.group(2) is not None:
            last[name] = float(m.group(2))
        elif controls[side]:
            base, inc = controls[side]
            rebuilt[name] = rebuilt.get(name, base + inc) - used + inc
    return (last, False) if last else (rebuilt, bool(rebuilt))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", help="a fastchess PGN")
    path = parser.parse_args().games
    try:
        return report(path)
    except OSError as e:
        print(f"error: cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return 1


def report(path) -> int:
    spent = defaultdict(list)
    left_at_end = defaultdict(list)
    rebuilt_games = defaultdict(int)
    time_losses = defaultdict(int)
    for tags, text in games(path):
        ends, rebuilt = clocks_at_end(tags, text, spent)
        for name, tl in ends.items():
            left_at_end[name].append(tl)
            rebuilt_games[name] += rebuilt
        term = tags.get("Termination", "")
        if "time" in term.lower():
            loser = tags["White"] if tags.get("Result") == "0-1" else tags["Black"]
            time_losses[loser] += 1
    if not left_at_end:
        print("error: no move times found (a fastchess PGN: with timeleft=true, or with a "
              "TimeControl tag, or one for each side, of the form base+increment)",
              file=sys.stderr)
        return 1
    for name in sorted(left_at_end):
        ends = left_at_end[name]
        kind = "rebuilt from the time control" if rebuilt_games[name] else "from the PGN"
        if 0 < rebuilt_games[name] < len(ends):
            kind = f"{rebuilt_games[name]} of {len(ends)} games rebuilt from the time control"
        print(f"{name}: {len(ends)} games, {len(spent[name])} moves, "
              f"{statistics.mean(spent[name]):.3f} s a move; clock left at the end "
              f"median {statistics.median(ends):.2f} s, least {min(ends):.2f} s "
              f"({kind}); time losses {time_losses[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
