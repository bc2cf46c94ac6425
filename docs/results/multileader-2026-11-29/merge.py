#!/usr/bin/env python3
"""merge.py MULTILEADER HEADLINE OUT: each cell of MULTILEADER (run.sh: the multi-leader
instances and native) merged into the same cell of HEADLINE (every other fixed algorithm): the
headline cell with the multi-leader instances' configurations added, written to OUT/<folder>/,
with the allreduce-8 cell beside it that the replays read the agreement's time from. Both
simulations ran the same platform file and options, and native must come out the same to the
bit in both (the merge refuses otherwise), as `autocoll bench --jobs` requires of its shares."""
import json
import shutil
import sys
from pathlib import Path


def main(multi, headline, out):
    for path in sorted(Path(multi).glob("*/*.json")):
        other = Path(headline) / path.parent.name / path.name
        if not other.exists():
            continue
        m, h = json.loads(path.read_text()), json.loads(other.read_text())
        native = [[c["times"] for c in d["configurations"] if c["name"] == "native"]
                  for d in (m, h)]
        if native[0] != native[1]:
            sys.exit(f"{path}: native differs from {other}'s: not the same simulation")
        have = {c["name"] for c in h["configurations"]}
        h["configurations"] += [c for c in m["configurations"]
                                if c["kind"] == "fixed" and c["name"] not in have]
        h["skipped"] = [s for s in h["skipped"] if s["name"] not in have]
        (Path(out) / path.parent.name).mkdir(parents=True, exist_ok=True)
        (Path(out) / path.parent.name / path.name).write_text(json.dumps(h, indent=1) + "\n")
        agreement = f"allreduce-8-np{h['machine']['ranks']}-ompi.json"
        shutil.copy(Path(headline) / path.parent.name / agreement,
                    Path(out) / path.parent.name / agreement)


if __name__ == "__main__":
    main(*sys.argv[1:4])
