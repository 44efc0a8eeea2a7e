#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60), starting from the checked-in seed
# corpora in tests/fuzz/corpus/. New inputs go to build/fuzz/corpus/<target> (the checked-in
# corpus stays small), findings to build/fuzz/findings/. An input that runs longer than 10 s
# counts as a finding (a hang). Targets run JOBS at a time (default: one per core; each fuzzer
# is single-threaded). Prints the executions of each target; exits non-zero if any target has a
# finding, after printing the end of that fuzzer's log.
# Needs the fuzz build: cmake --preset fuzz && cmake --build --preset fuzz
set -euo pipefail
seconds=${1:-60}
jobs=${2:-$(nproc)}
cd "$(dirname "$0")/.."
bin=build/fuzz/tests/fuzz
targets=(fuzz_fen fuzz_uci_move fuzz_uci fuzz_record fuzz_book fuzz_nnue_file fuzz_pgn)
mkdir -p build/fuzz/findings
for target in "${targets[@]}"; do
  [[ -x $bin/$target ]] || { echo "$bin/$target missing: build the fuzz preset first" >&2; exit 2; }
done

# One target; its report goes to stdout as one block, so that parallel targets do not interleave.
fuzz_one() {
  local target=$1 log=build/fuzz/$1.log runs
  mkdir -p "build/fuzz/corpus/$target"
  if ! "$bin/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
      -artifact_prefix="build/fuzz/findings/$target-" \
      "build/fuzz/corpus/$target" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    { tail -40 "$log"; echo "$target: FINDING (input saved under build/fuzz/findings/)"; } >&2
    return 1
  fi
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  echo "$target: ${runs:-?} executions in ${seconds} s, no findings"
}

failed=0
running=0
for target in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
