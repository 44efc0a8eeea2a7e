#!/usr/bin/env bash
# Fails when a C++ file under src/, tests/, bench/ or tools/ is not laid out as .clang-format
# says. `tools/check_format.sh --fix` rewrites them in place instead.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' \
                                    'bench/*.cpp' 'bench/*.h' 'tools/*.cpp' 'tools/*.h')
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
clang-format --dry-run -Werror "${files[@]}"
echo "clang-format: ${#files[@]} files laid out as .clang-format says"
