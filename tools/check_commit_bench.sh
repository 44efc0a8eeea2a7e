#!/usr/bin/env bash
# Checks the bench that the HEAD commit's message gives OpenBench (CI, after the release build):
#   1. the message has a line `Bench: N` (all such lines agree);
#   2. OpenBench reads exactly N from it: it takes the last match of
#      `(?:BENCH|NODES)[ :=]+([0-9,]+)` in any case, commas dropped, and a 0 or an empty match
#      is no bench at all (so "go nodes 0" after the Bench line spoils it);
#   3. given the engine, `BINARY bench` searches N nodes.
# Usage: tools/check_commit_bench.sh [BINARY] [COMMIT]   (COMMIT defaults to HEAD)
# tools/commit-msg, the commit-msg hook, writes the Bench line and warns about (2) at commit time.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-}
commit=${2:-HEAD}
fail() {
  echo "check_commit_bench: $*" >&2
  exit 1
}

message=$(git log -1 --format=%B "$commit")
mapfile -t stated < <(grep -E '^Bench: [0-9]+[[:space:]]*$' <<<"$message" | grep -oE '[0-9]+' |
                      sort -u)
((${#stated[@]} > 0)) || fail "the message of $commit has no 'Bench: N' line"
((${#stated[@]} == 1)) || fail "the message of $commit has Bench lines that disagree: ${stated[*]}"
expected=${stated[0]}

# OpenBench's own pattern and reading (OpenBench/workloads/verify_workload.py, determine_bench),
# in Python as there.
read_by_openbench=$(python3 -c '
import re, sys
matches = re.findall(r"(?:BENCH|NODES)[ :=]+([0-9,]+)", sys.stdin.read(), re.IGNORECASE)
digits = matches[-1].replace(",", "") if matches else ""
print(int(digits) if digits and int(digits) else "none")' <<<"$message")
if [[ "$read_by_openbench" != "$expected" ]]; then
  fail "the Bench line of $commit says $expected, but OpenBench would read $read_by_openbench" \
       "(the last match of (?:BENCH|NODES)[ :=]+([0-9,]+) in any case)"
fi

if [[ -n "$binary" ]]; then
  actual=$("$binary" bench 2>&1 | grep -E '^Nodes searched: [0-9]+' | tail -1 | grep -oE '[0-9]+' ||
           true)
  [[ -n "$actual" ]] || fail "'$binary bench' printed no node count"
  [[ "$actual" == "$expected" ]] ||
    fail "'$binary bench' searches $actual nodes, the Bench line of $commit says $expected"
  echo "commit bench $expected: the message's Bench line, OpenBench's reading and $binary agree"
else
  echo "commit bench $expected: the message's Bench line and OpenBench's reading agree"
fi
