#!/usr/bin/env bash
# run.sh - one rank pair on the simulated platforms moving 1 MiB in 1 to 128 messages side by
# side, inside one node (--ppn 2) and between two nodes: how much bandwidth a pair gets from the
# node's loopback link, which SimGrid makes FATPIPE (every flow its full bandwidth, however many
# share it). Prints results.txt, or the file OUT names (simulated time: the same on any
# machine; seconds to run). results.txt is from before the fix of the same day (the platform
# loader's nodes of one host a rank), after.txt from after it (OUT=after.txt ./run.sh).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
here="$repo/docs/results/loopback-2026-11-28"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smpicc -O2 -o "$tmp/streams" "$here/streams.c"
{
  for platform in fat-tree-ib one-switch-gbe; do
    for ppn in 2 1; do
      where=$([ "$ppn" = 2 ] && echo "one node" || echo "two nodes")
      for seg in 1048576 262144 65536 8192; do
        printf '%s, %s: ' "$platform" "$where"
        "$repo/.venv/bin/autocoll" simgrid run --platform "$platform" --ppn "$ppn" -n 2 \
          "$tmp/streams" "$seg" 2>/dev/null | grep messages
      done
    done
  done
} > "$here/${OUT:-results.txt}"
cat "$here/${OUT:-results.txt}"
