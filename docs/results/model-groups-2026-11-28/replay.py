"""replay.py - the model strategy replayed from a cold start (`autocoll simgrid replay`, 1000
calls, no noise) over every cell set the repository keeps (docs/results/*/cells.tar.xz), once
per value of AUTOCOLL_MODEL_GROUPS, and the summary of what the value changes (markdown on
stdout).

    python replay.py SCRATCH > summary.md

SCRATCH: an empty folder; each archive is extracted there, the replays' JSON go there too. A
folder of cells is every folder holding *-ompi.json but the baselines' (-mpich, -mpich4,
-ompi5). A folder whose cells measured an older registry (a candidate of today's registry not
measured) is replayed cell by cell among the candidates the cell measured (--candidates). The
agreement's time: the folder's allreduce of 8 B, else a sibling folder's."""

import glob
import json
import math
import os
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
AUTOCOLL = REPO / ".venv/bin/autocoll"
VALUES = ["registry", "dims"]
ON_ORACLE = 1.02


def cell_folders(scratch):
    for archive in sorted(REPO.glob("docs/results/*/cells.tar.xz")):
        dest = scratch / archive.parent.name
        if not dest.exists():
            dest.mkdir(parents=True)
            with tarfile.open(archive) as t:
                t.extractall(dest)
    for d in sorted({Path(p).parent for p in glob.glob(f"{scratch}/**/*-ompi.json",
                                                        recursive=True)}):
        if not d.name.endswith(("-mpich", "-mpich4", "-ompi5")):
            yield d


def agreement(d):
    if glob.glob(f"{d}/allreduce-8-np*-ompi.json"):
        return []
    sibling = sorted(glob.glob(f"{d.parent}/*/allreduce-8-np*-ompi.json"))
    return ["--agreement", sibling[0]] if sibling else []


def replay(files, out, value, extra=()):
    cmd = [str(AUTOCOLL), "simgrid", "replay", *map(str, files), *extra, "--layers", "model",
           "--calls", "1000", "--set", f"AUTOCOLL_MODEL_GROUPS={value}", "--json", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return json.loads(out.read_text())["cells"] if r.returncode == 0 else None


def folder_cells(d, scratch, value):
    """The replayed cells of folder d (a list of the JSON's cells)."""
    tag = str(d.relative_to(scratch)).replace("/", "_")
    files = sorted(d.glob("*-ompi.json"))
    cells = replay(files, scratch / f"{tag}-{value}.json", value, agreement(d))
    if cells is not None:
        return cells
    cells = []
    for f in files:  # an older registry: among what the cell measured
        data = json.loads(f.read_text())
        names = ",".join(c["name"] for c in data["configurations"] if c["kind"] == "fixed")
        got = replay([f], scratch / f"{tag}-{f.stem}-{value}.json", value,
                     [*agreement(d), "--candidates", names])
        if got is None:
            sys.exit(f"replay.py: {f} does not replay")
        cells += got
    return cells


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    scratch = Path(sys.argv[1]).resolve()
    rows = {}  # (folder, collective, bytes, ranks) -> {value: replayed}
    for d in cell_folders(scratch):
        for value in VALUES:
            for c in folder_cells(d, scratch, value):
                key = (str(d.relative_to(scratch)), c["collective"], c["bytes"], c["ranks"])
                rows.setdefault(key, {"oracle": c["oracle"]})[value] = c["replayed"][0]
    print("# AUTOCOLL_MODEL_GROUPS over the kept cell sets\n")
    print(f"`model` from a cold start, 1000 calls, replayed (`autocoll simgrid replay`) over "
          f"{len(rows)} cells; on the oracle: steady / oracle <= {ON_ORACLE}.\n")
    print("| cell set | cells | " + " | ".join(
        f"{v}: on oracle, steady geomean, whole geomean, decision (most)" for v in VALUES) + " |")
    print("|---|---|" + "---|" * len(VALUES))
    sets = sorted({k[0].split("/")[0] for k in rows}) + ["all"]
    for s in sets:
        sel = [r for k, r in rows.items() if s == "all" or k[0].split("/")[0] == s]
        cols = []
        for v in VALUES:
            on = sum(r[v]["steady_vs_oracle"] <= ON_ORACLE for r in sel)
            cols.append(f"{on}, {geomean([r[v]['steady_vs_oracle'] for r in sel]):.4f}, "
                        f"{geomean([r[v]['whole_vs_oracle'] for r in sel]):.4f}, "
                        f"{max(r[v]['decision'] for r in sel)}")
        name = f"**{s}**" if s == "all" else f"`{s}`"
        print(f"| {name} | {len(sel)} | " + " | ".join(cols) + " |")
    print("\n## The cells the value changes (on the oracle, or the whole run by more than 3 %)\n")
    print("| folder | collective | bytes | ranks | oracle | " +
          " | ".join(f"{v}: chosen, steady, whole" for v in VALUES) + " |")
    print("|---|---|---|---|---|" + "---|" * len(VALUES))
    for k, r in sorted(rows.items()):
        a, b = (r[v] for v in VALUES)
        if ((a["steady_vs_oracle"] <= ON_ORACLE) != (b["steady_vs_oracle"] <= ON_ORACLE) or
                abs(a["whole_vs_oracle"] - b["whole_vs_oracle"]) > 0.03):
            print(f"| `{k[0]}` | {k[1]} | {k[2]} | {k[3]} | `{r['oracle']}` | " + " | ".join(
                f"`{r[v]['chosen']}`, {r[v]['steady_vs_oracle']:.3f}, "
                f"{r[v]['whole_vs_oracle']:.3f}" for v in VALUES) + " |")


if __name__ == "__main__":
    main()
