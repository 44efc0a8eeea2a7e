#!/usr/bin/env bash
# Rebuilds training data files from their manifest (docs/training-manifest.tsv), byte for byte:
# for each file, builds the engine of the file's commit in a git worktree and runs
# `tessera datagen` with the manifest's arguments at the lowest priority, then checks the
# sha256. A file already present with the right sha256 is skipped, and one that is found in
# SHARED_DIR (../shared/data/training by default) with the right sha256 is copied instead.
#
#   tools/regenerate_data.sh [--out DIR] [--manifest FILE] [FILE...]   (default: every file)
#
# Resumable: a generation stopped part-way (the script or the machine) keeps its partial file
# and its log; the next run continues it with --append --first-game where the engine of the
# file's commit has that flag (a game depends only on the seed and its index, so the bytes are
# those of one run), and starts that file again where it has not. Meant to run in the
# background: nohup tools/regenerate_data.sh --out /root/tessera-data &
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/root/tessera-data}
manifest=$repo/docs/training-manifest.tsv
shared=${SHARED_DIR:-$repo/../shared/data/training}
wanted=()
while (($#)); do
  case $1 in
    --out) out=$2; shift 2 ;;
    --manifest) manifest=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "regenerate_data: unknown flag $1" >&2; exit 2 ;;
    *) wanted+=("$1"); shift ;;
  esac
done
[[ -f $manifest ]] || { echo "regenerate_data: no manifest at $manifest" >&2; exit 2; }
mkdir -p "$out/engines"

engine_of() {  # builds (once) the engine of commit $1, prints its path
  local commit=$1 exe=$out/engines/tessera-$1
  if [[ ! -x $exe ]]; then
    local tree
    tree=$(mktemp -d)
    git -C "$repo" worktree add --detach -f "$tree" "$commit" >&2
    nice -n 19 make -C "$tree" -j2 EXE="$exe" >&2
    git -C "$repo" worktree remove --force "$tree" >&2
  fi
  echo "$exe"
}

status=0
while IFS=$'\t' read -r file commit args games positions sha where; do
  [[ -z $file || $file == \#* ]] && continue
  if ((${#wanted[@]})) && [[ " ${wanted[*]} " != *" $file "* ]]; then continue; fi
  target=$out/$file
  if [[ -f $target ]] && [[ $(sha256sum "$target" | cut -d' ' -f1) == "$sha" ]]; then
    echo "$file: present, sha256 matches"; continue
  fi
  if [[ -f $shared/$file ]] && [[ $(sha256sum "$shared/$file" | cut -d' ' -f1) == "$sha" ]]; then
    cp "$shared/$file" "$target"; echo "$file: copied from $shared"; continue
  fi
  exe=$(engine_of "$commit")
  log=$target.log
  read -r -a argv <<<"$args"
  resume=()
  if [[ -f $target && -f $log ]] && "$exe" datagen --help 2>&1 | grep -q -- --first-game; then
    done_games=$(sed -n 's/.*--first-game \([0-9]*\)).*/\1/p' "$log" | tail -n 1)
    if [[ -n $done_games ]]; then
      # --games in the manifest is the total: play the rest, from the first missing game.
      for i in "${!argv[@]}"; do
        [[ ${argv[$i]} == --games ]] && argv[$((i + 1))]=$((games - done_games))
      done
      resume=(--append --first-game "$done_games")
      echo "$file: resuming at game $done_games of $games"
    fi
  fi
  ((${#resume[@]})) || { rm -f "$target"; echo "$file: generating $games games with $commit"; }
  nice -n 19 "$exe" datagen "${argv[@]}" "${resume[@]}" --output "$target" >>"$log" 2>&1 || {
    echo "$file: datagen stopped (see $log); run again to resume" >&2; exit 1; }
  got=$(sha256sum "$target" | cut -d' ' -f1)
  if [[ $got == "$sha" ]]; then
    echo "$file: regenerated, sha256 matches"
  else
    echo "$file: regenerated but sha256 is $got, not $sha" >&2; status=1
  fi
done <"$manifest"
exit $status
