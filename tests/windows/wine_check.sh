#!/usr/bin/env bash
# Runs the Windows build (preset `windows`) under wine and checks it against a Linux build of
# the same source:
#
#   tests/windows/wine_check.sh LINUX_TESSERA TESSERA_EXE [WINEPREFIX_DIR]
#
#   1. `uci` answers `id name`, `option` lines and `uciok` (sent with CRLF line ends, as a
#      Windows GUI may send them);
#   2. `bench` searches exactly as many nodes as the Linux build's `bench` (the bench signature);
#   3. `--version` names the same version and commit as the Linux build;
#   4. the Polyglot book in tests/data/book gives the same book move as on Linux.
#
# The wine prefix is WINEPREFIX_DIR (created on first use, which takes a while; later runs
# reuse it) or else a temporary directory removed at exit. Wine runs headless: no display,
# no Mono or Gecko installers, no desktop menu entries.
#
# Exit status 77 (a skipped ctest) when tessera.exe has not been built or wine is not
# installed, or 1 when TESSERA_WINE_REQUIRED=1 (the `windows` test preset sets it).
set -euo pipefail

if (($# < 2)); then
  echo "usage: $0 LINUX_TESSERA TESSERA_EXE [WINEPREFIX_DIR]" >&2
  exit 2
fi
linux=$1
exe=$2
book=$(cd "$(dirname "$0")/../data/book" && pwd)/openings.bin

unavailable() {
  echo "wine check not run: $1"
  if [[ ${TESSERA_WINE_REQUIRED:-0} == 1 ]]; then exit 1; fi
  exit 77
}
[[ -f $exe ]] || unavailable "$exe not built (cmake --preset windows && cmake --build --preset windows)"
wine=$(command -v wine || command -v wine64 || ls /usr/lib/wine/wine64 2>/dev/null || true)
[[ -n $wine ]] || unavailable "wine not found (apt-get install wine64 wine)"
wineserver=$(command -v wineserver || ls /usr/lib/wine/wineserver64 2>/dev/null || true)

if (($# >= 3)); then
  mkdir -p "$3"
  WINEPREFIX=$(cd "$3" && pwd)
else
  WINEPREFIX=$(mktemp -d)
  trap 'rm -rf "$WINEPREFIX"' EXIT
fi
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
unset DISPLAY WAYLAND_DISPLAY

failures=0
fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}
# tessera.exe under wine, its output without the CRs of Windows line ends.
run_exe() { timeout 300 "$wine" "$exe" "$@" | tr -d '\r'; }
nodes() { sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p'; }
nps() { sed -n 's/^Nodes\/second: \([0-9]*\)$/\1/p'; }

start=$SECONDS
if [[ ! -f $WINEPREFIX/system.reg ]]; then
  echo "creating the wine prefix $WINEPREFIX"
  timeout 300 "$wine" wineboot --init >/dev/null 2>&1 || true
fi
echo "wine: $("$wine" --version 2>/dev/null), prefix ready in $((SECONDS - start)) s"

# 1. The UCI handshake.
uci=$(printf 'uci\r\nquit\r\n' | run_exe) || true
grep -q '^id name Tessera' <<<"$uci" || fail "uci: no 'id name Tessera' line"
grep -q '^option name ' <<<"$uci" || fail "uci: no option lines"
grep -qx 'uciok' <<<"$uci" || fail "uci: no uciok"
echo "uci: $(grep -c '^option name ' <<<"$uci") options, $(grep -x uciok <<<"$uci" || echo 'no uciok')"

# 2. The bench signature.
linux_bench=$("$linux" bench 2>&1) || true
exe_bench=$(run_exe bench </dev/null 2>&1) || true
linux_nodes=$(nodes <<<"$linux_bench")
exe_nodes=$(nodes <<<"$exe_bench")
echo "bench: linux $linux_nodes nodes at $(nps <<<"$linux_bench") nps," \
  "windows (wine) $exe_nodes nodes at $(nps <<<"$exe_bench") nps"
[[ -n $linux_nodes ]] || fail "bench: no node count from $linux"
[[ -n $exe_nodes && $exe_nodes == "$linux_nodes" ]] || fail "bench: $exe_nodes nodes, expected $linux_nodes"

# 3. --version.
# The first line (version and commit) must agree; the build line names other options there.
linux_version=$("$linux" --version | head -n 1) || true
exe_version=$(run_exe --version </dev/null | tr -d '\r' | head -n 1) || true
echo "version: $exe_version"
[[ $exe_version == "$linux_version" ]] || fail "--version: '$exe_version', expected '$linux_version'"

# 4. A Polyglot book, given by its Windows path.
book_session() {
  printf 'setoption name %s value %s\n' OwnBook true BookBestMove true BookFile "$1"
  printf 'position startpos\ngo\nisready\nquit\n'
}
linux_move=$(book_session "$book" | "$linux" | grep '^bestmove' || true)
windows_book=$("$wine" winepath -w "$book" 2>/dev/null | tr -d '\r')
exe_move=$(book_session "$windows_book" | run_exe | grep '^bestmove' || true)
echo "book: $windows_book: $exe_move"
[[ -n $linux_move && $exe_move == "$linux_move" ]] || fail "book: '$exe_move', expected '$linux_move'"

[[ -z $wineserver ]] || timeout 30 "$wineserver" -w || true
echo "wine check: $failures failures, $((SECONDS - start)) s"
((failures == 0))
