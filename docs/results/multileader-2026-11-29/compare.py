#!/usr/bin/env python3
"""compare.py MULTILEADER HEADLINE REPLAYS: per cell of MULTILEADER (the instances with 2 and 4
leaders, run.sh), the best of them against the oracle of the same cell of HEADLINE (every other
fixed algorithm and native, headline-2026-11-28) and against their one-leader twins there;
native measured in both, as a check that the two runs simulate the same thing; and `model` from
a cold start replayed over the merged cell (REPLAYS: a folder of `autocoll simgrid replay
--json` files, replay-merged-<folder>.json a cell folder)."""
import json
import re
import sys
from pathlib import Path


def medians(path):
    data = json.loads(path.read_text())
    return {c["name"]: c["median"] for c in data["configurations"]
            if c["kind"] in ("native", "fixed")}


def model_rows(path):
    """{cell: (chosen, steady / oracle, whole / oracle)} of model in a replay."""
    out = {}
    if not Path(path).exists():
        return out
    for c in json.loads(Path(path).read_text())["cells"]:
        for r in c["replayed"]:
            if r["layer"] == "model":
                out[c["cell"]] = (r["chosen"], r["steady_vs_oracle"], r["whole_vs_oracle"])
    return out


def main(multi, headline, replays):
    print("| ranks | ppn | bytes | oracle without k > 1 (us) | best with k > 1 (us) | "
          "/ oracle | its one-leader twin / it | native here / there | model, merged cell: "
          "chosen, steady / its oracle, whole |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for path in sorted(Path(multi).glob("*/*.json")):
        other = Path(headline) / path.parent.name / path.name
        if not other.exists():
            continue
        ml, hl = medians(path), medians(other)
        ppn = int(re.search(r"ppn(\d+)", path.parent.name).group(1))
        data = json.loads(path.read_text())
        ranks, nbytes = data["machine"]["ranks"], data["parameters"]["bytes"]
        oracle = min(hl, key=hl.get)
        ks = {n: t for n, t in ml.items() if n.startswith("hier_k")}
        if not ks:
            continue
        best = min(ks, key=ks.get)
        twin = re.sub(r"^hier_k\d+_", "hier_", best)
        m = model_rows(Path(replays) / f"replay-merged-{path.parent.name}.json").get(path.name)
        rows.append((ranks, ppn, nbytes, oracle, hl[oracle], best, ks[best], hl.get(twin),
                     ml["native"] / hl["native"], m))
    for ranks, ppn, nbytes, oracle, to, best, tb, tt, nat, m in sorted(rows):
        twin = f"{tt / tb:.3f}" if tt else "-"
        model = f"`{m[0]}`, {m[1]:.3f}, {m[2]:.3f}" if m else "-"
        print(f"| {ranks} | {ppn} | {nbytes} | `{oracle}` {to * 1e6:.2f} | `{best}` "
              f"{tb * 1e6:.2f} | {tb / to:.3f} | {twin} | {nat:.6f} | {model} |")


if __name__ == "__main__":
    main(*sys.argv[1:4])
