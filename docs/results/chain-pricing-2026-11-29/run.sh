#!/usr/bin/env bash
# run.sh - the model's pricing of chains (and binary trees) over several ranks a node, tried and
# not kept (README.md): the strategy replayed from a cold start over every kept cell set, before
# and after chain.patch, and after chain.patch with binary.patch on top, each a build of the
# openmpi flavour (bench/strategy_replay holds the model). Scratch folders under /tmp.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
src=$(mktemp -d)
git -C "$repo" archive HEAD | tar -x -C "$src"
cmake -S "$src" -B "$src/before" -G Ninja -DAUTOCOLL_MPI=openmpi > /dev/null
cmake --build "$src/before" > /dev/null
patch -d "$src" -p1 < "$here/chain.patch"
cmake -S "$src" -B "$src/chain" -G Ninja -DAUTOCOLL_MPI=openmpi > /dev/null
cmake --build "$src/chain" > /dev/null
patch -d "$src" -p1 < "$here/binary.patch"
cmake -S "$src" -B "$src/binary" -G Ninja -DAUTOCOLL_MPI=openmpi > /dev/null
cmake --build "$src/binary" > /dev/null
mkdir -p "$src/scratch-chain" "$src/scratch-binary"
"$repo/scripts/replay_setting" "$src/scratch-chain" build "$src/before" "$src/chain" |
  sed "s#$src/##g" > "$here/chain-summary.md"
"$repo/scripts/replay_setting" "$src/scratch-binary" build "$src/before" "$src/binary" |
  sed "s#$src/##g" > "$here/chain-binary-summary.md"
