#!/usr/bin/env bash
# after.sh - run.sh again after the fix: with more than one rank a node the platform loader
# builds each node out of one host a rank, a link at one core's copy rate each and the node's
# memory shared (platforms/README.md). The same pair inside one node (--ppn 2) and between two
# nodes. Prints after.txt (simulated time: the same on any machine; seconds to run).
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
} > "$here/after.txt"
cat "$here/after.txt"
