# replay_cells.sh - sourced by the run.sh scripts that replay the model strategy over the
# simulated cells of issue 21 (`autocoll simgrid replay`; ../model-eval-2026-11-24/ lists the
# cells): 16 ranks (cells16/), 64 ranks (cells64/, oracle64/: the agreement's time from
# cells64/ where a folder has no 8-byte allreduce) and 256 ranks (fat-tree-ib's allreduce and
# alltoall, the dragonfly's and one-switch-gbe's allreduce, every platform's bcast), each
# folder's cells into one --json file; candidates_of, a cell's --candidates. Needs $sim
# (docs/results/simgrid-2026-11-23, its cells extracted: `tar -xJf raw-json.tar.xz` there) and
# $autocoll (the venv's autocoll).

# the 16-rank cells into $1-16-<platform>.json; then replay's options
replay_16() {
  local prefix=$1 d
  shift
  for d in "$sim"/cells16/*/; do
    "$autocoll" simgrid replay "$d"*-ompi.json "$@" --json "$prefix-16-$(basename "$d").json" \
      > /dev/null
  done
}

# the 64- and 256-rank cells into $1-64-<platform>-<folder>.json and $1-256.json; then
# replay's options
replay_64_256() {
  local prefix=$1 d p
  shift
  for d in "$sim"/cells64/*/ "$sim"/oracle64/*/; do
    p=$(basename "$d")
    agree=()
    [ -f "$d/allreduce-8-np64-ompi.json" ] ||
      agree=(--agreement "$sim/cells64/$p/allreduce-8-np64-ompi.json")
    "$autocoll" simgrid replay "$d"*-ompi.json "${agree[@]}" "$@" \
      --json "$prefix-64-$p-$(basename "$(dirname "$d")").json" > /dev/null
  done
  "$autocoll" simgrid replay "$sim"/cells256/fat-tree-ib/a*-ompi.json \
    "$sim"/allreduce256clock/{dragonfly,one-switch-gbe}/allreduce-8-np256-ompi.json \
    "$sim"/cells256clock/*/bcast-*-ompi.json "$@" --json "$prefix-256.json" > /dev/null
}

# --candidates and the fixed algorithms cell $1 measured, when it left some out ("not
# simulated": simgrid-2026-11-23/alltoall256_cell.py, allreduce256_cell.py), a line each: the
# strategies choose among those; nothing for a cell that measured every algorithm
candidates_of() {
  "$(dirname "$autocoll")/python" -c '
import json, sys
cell = json.load(open(sys.argv[1]))
if any(s["reason"].startswith("not simulated") for s in cell.get("skipped", [])):
    print("--candidates")
    print(",".join(c["name"] for c in cell["configurations"] if c["kind"] == "fixed"))' "$1"
}
