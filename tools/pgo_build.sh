#!/usr/bin/env bash
# The profile-guided build in its three steps: build the instrumented engine, run its bench
# (the training run: the same positions OpenBench measures), rebuild with the profile.
# Usage: tools/pgo_build.sh [BUILD_DIR] [extra CMake arguments...]
# Without arguments it uses the `pgo-instrument` and `pgo` presets (build/pgo); with a build
# directory it configures that one directly (the makefile's way). The result is
# BUILD_DIR/tessera; its bench node count is the same as without the profile.
set -euo pipefail
cd "$(dirname "$0")/.."

if (($# == 0)); then
  dir=build/pgo
  configure() { cmake --preset "$1" >/dev/null; }
  build() { cmake --build --preset "$1"; }
  pass1=pgo-instrument
  pass2=pgo
else
  dir=$1
  shift
  extra=("$@")
  configure() {
    local mode=generate
    [[ $1 == pgo ]] && mode=use
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DTESSERA_PGO=$mode "${extra[@]}" >/dev/null
  }
  build() { cmake --build "$dir" --target tessera; }
  pass1=instrument
  pass2=pgo
fi

rm -rf "$dir/pgo-profile"
configure "$pass1"
build "$pass1"
echo "pgo: training run ($dir/tessera bench)"
"$dir/tessera" bench >/dev/null
if compgen -G "$dir/pgo-profile/*.profraw" >/dev/null; then  # clang writes raw profiles
  llvm-profdata merge -output="$dir/pgo-profile/default.profdata" "$dir"/pgo-profile/*.profraw
fi
configure "$pass2"
build "$pass2"
"$dir/tessera" bench 2>&1 | tail -2
