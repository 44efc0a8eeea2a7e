#!/usr/bin/env bash
# Checks that `tessera bench` prints the node count of the newest `Bench: <nodes>` line in the
# commit log: every commit that changes search or evaluation behaviour records its signature,
# so a mismatch means behaviour changed without saying so (or the log's figure is stale).
# Usage: tools/check_bench_signature.sh [BINARY]   (default build/release/tessera)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-build/release/tessera}

expected=$(git log --format=%B | grep -m1 -E '^Bench: [0-9]+[[:space:]]*$' | grep -oE '[0-9]+' || true)
if [[ -z "$expected" ]]; then
  echo "check_bench_signature: no 'Bench: <nodes>' line in the commit log" >&2
  exit 1
fi
actual=$("$binary" bench 2>&1 | grep -E '^Nodes searched: [0-9]+' | grep -oE '[0-9]+' || true)
if [[ -z "$actual" ]]; then
  echo "check_bench_signature: '$binary bench' printed no node count" >&2
  exit 1
fi
if [[ "$actual" != "$expected" ]]; then
  echo "check_bench_signature: bench gives $actual nodes, the newest Bench: line says $expected" >&2
  exit 1
fi
echo "bench signature $actual matches the commit log"
