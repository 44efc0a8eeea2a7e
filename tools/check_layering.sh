#!/usr/bin/env bash
# Fails when a source file under src/ includes a header of a folder that its own folder must
# not depend on. The allowed edges (each folder may also include itself):
#   core    <- nothing
#   eval    <- core
#   search  <- core eval
#   book    <- core
#   game    <- core
#   engine  <- core eval search book
#   uci     <- core eval search engine book
#   datagen <- core engine game search eval
#   cli     <- everything above
# The CMake targets follow the same graph (one static library per folder, tessera_<folder>,
# linking only the folders it may use), and each folder is also linked on its own against just
# those (the tessera_layer_check_<folder> targets of a build without LTO), so a call against
# the graph fails to link; this check catches it at the include, before any build.
set -euo pipefail
cd "$(dirname "$0")/../src"
declare -A allowed=(
  [core]=""
  [eval]="core"
  [search]="core eval"
  [book]="core"
  [game]="core"
  [engine]="core eval search book"
  [uci]="core eval search engine book"
  [datagen]="core engine game search eval"
  [cli]="core eval search book game engine uci datagen"
)
status=0
for folder in "${!allowed[@]}"; do
  [[ -d $folder ]] || continue
  while IFS= read -r line; do
    file=${line%%:*}
    target=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$line")
    [[ $target == "$folder" ]] && continue
    if [[ " ${allowed[$folder]} " != *" $target "* ]]; then
      echo "layering: $file includes $target/ (allowed for $folder/: ${allowed[$folder]:-nothing})"
      status=1
    fi
  done < <(grep -rHE '^#include "[a-z_]+/' "$folder" || true)
done
((status == 0)) && echo "layering: every include of src/ follows the dependency graph"
exit $status
