#!/usr/bin/env python3
"""history_summary.py - history.sh's runs side by side: per platform and cell, the model layer
started from the parameters the first run kept in history (`prior`) and from the defaults
(`cold`): the prior it started from, decision length, candidates measured, choice, mean time of
the 1000 calls and steady time (median of the last 100), and prior / cold of both.

  .venv/bin/python docs/results/model-eval-2026-11-24/history_summary.py > history.txt
"""

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent


def layer(path):
    data = json.loads(path.read_text())
    (conf,) = [c for c in data["configurations"] if c["kind"] == "layer"]
    (ctx,) = conf["layer"]["contexts"]
    return ctx, sum(conf["times"]) / len(conf["times"]), statistics.median(conf["times"][-100:])


def main():
    print("platform | cell | start | alpha_inter, overhead at the start (us) | decision | "
          "measured | chosen | mean (us) | steady (us) | mean prior/cold | steady prior/cold")
    for p in sorted((HERE / "history").iterdir()):
        if not p.is_dir():
            continue
        for cell in sorted((p / "cold").glob("*.json")):
            rows = {k: layer(p / k / cell.name) for k in ("prior", "cold")}
            for k, (ctx, mean, steady) in rows.items():
                start = ctx.get("platform_prior") or {}
                print(f"{p.name} | {cell.stem} | {k} | "
                      f"{start.get('alpha_inter', 0) * 1e6:.2f}, "
                      f"{start.get('overhead', 0) * 1e6:.2f} | {ctx['decision_calls']} | "
                      f"{len(ctx['runs'])} | {ctx['chosen']} | {mean * 1e6:.2f} | "
                      f"{steady * 1e6:.2f} | " +
                      (f"{mean / rows['cold'][1]:.3f} | {steady / rows['cold'][2]:.3f}"
                       if k == "prior" else "- | -"))


if __name__ == "__main__":
    main()
