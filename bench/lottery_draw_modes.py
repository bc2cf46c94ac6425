#!/usr/bin/env python3
"""Measure the lottery's two draw modes (AUTOCOLL_LOTTERY_DRAW=seed|broadcast) on a settled
8-byte allreduce, as docs/lottery.md reports them.

Each repetition is one run of the benchmark driver (bench/autocoll_bench, Figure 4 loop) with
the layer configurations lottery_seed and lottery_broadcast, each from a cold start, in an order
that alternates between repetitions (drift and warm-up fall on both alike). Per configuration
and run it takes, over the settled calls [--settle, iterations):
  - the mean time per call (max over ranks per call): what the application pays, exploration
    and agreements included; and the same mean without the slowest 1 % of the calls
    (scheduling stalls of a shared machine, milliseconds each, swamp the mean otherwise; the
    broadcast mode's extra agreements fall on about 7 % of the calls and stay in);
  - the layer's own time per settled call on rank 0 (the context's O_MA: choosing, bookkeeping
    and the strategy's agreements, where the broadcast mode's extra agreements fall).
It prints, per rank count and mode, the median over the runs and the min-max, and the
broadcast / seed ratios: of those medians, and run by run (both modes ran in the same run).

    bench/lottery_draw_modes.py --build build/openmpi --ranks 2,4 --runs 10
Standard library only; Open MPI's launcher (--oversubscribe: 4 ranks share 2 cores here).
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MODES = ["lottery_seed", "lottery_broadcast"]


def one_run(build, np, iterations, order, out):
    cmd = ["mpirun.openmpi", "--allow-run-as-root", "--oversubscribe", "-n", str(np),
           str(Path(build) / "bench/autocoll_bench"), "--collective", "allreduce", "--bytes", "8",
           "--iterations", str(iterations), "--only", "native", "--layers", ",".join(order),
           "--out", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=600)
    return json.loads(Path(out).read_text())


def settled(config, settle):
    times = config["times"][settle:]
    kept = sorted(times)[: len(times) - len(times) // 100]
    (ctx,) = config["layer"]["contexts"]
    over = ctx["overhead"]
    return {
        "mean_us": 1e6 * sum(times) / len(times),
        "trimmed_us": 1e6 * sum(kept) / len(kept),
        "median_us": 1e6 * statistics.median(times),
        "layer_us": 1e6 * over["settled_seconds"] / max(1, over["settled_calls"]),
        "agreements": ctx["agreements"],
        "broadcasts": ctx["broadcasts"],
        "draws": ctx["draws"],
        "chosen": ctx["chosen"],
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default="build/openmpi")
    p.add_argument("--ranks", default="2,4")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--settle", type=int, default=500)
    p.add_argument("--json", help="write every run's numbers here")
    a = p.parse_args()
    everything = {}
    with tempfile.TemporaryDirectory() as tmp:
        for np in [int(x) for x in a.ranks.split(",")]:
            rows = {m: [] for m in MODES}
            machine, loads = None, []
            for r in range(a.runs):
                order = MODES if r % 2 == 0 else MODES[::-1]
                res = one_run(a.build, np, a.iterations, order, Path(tmp) / f"run-{np}-{r}.json")
                machine = res["machine"]
                loads.append(machine.get("loadavg_start", [0.0])[0])
                for c in res["configurations"]:
                    spec = c.get("layer", {}).get("spec")
                    if spec in rows:
                        rows[spec].append(settled(c, a.settle))
            everything[np] = rows
            cores = machine.get("cores_online", "?")
            print(f"allreduce 8 B, {np} ranks on {cores} cores"
                  f"{' (oversubscribed)' if isinstance(cores, int) and np > cores else ''}, "
                  f"{a.runs} runs, settled calls [{a.settle}, {a.iterations}); load average "
                  f"at the runs' start {min(loads):.2f}-{max(loads):.2f}; {machine['mpi_library'].split(',')[0]}:")
            med = {}
            for m in MODES:
                v = rows[m]
                line = []
                for key in ["mean_us", "trimmed_us", "median_us", "layer_us"]:
                    xs = [x[key] for x in v]
                    med[(m, key)] = statistics.median(xs)
                    line.append(f"{key} {statistics.median(xs):.3f} [{min(xs):.3f}-{max(xs):.3f}]")
                agr = statistics.median(x["agreements"] for x in v)
                bc = statistics.median(x["broadcasts"] for x in v)
                print(f"  {m:18s} agreements {agr:.0f} (broadcasts {bc:.0f})\n    " +
                      "\n    ".join(line))
            for key in ["mean_us", "trimmed_us", "median_us", "layer_us"]:
                pairs = [b[key] / s[key] for s, b in zip(rows["lottery_seed"],
                                                         rows["lottery_broadcast"])]
                dearer = sum(x > 1.0 for x in pairs)
                print(f"  broadcast / seed, {key}: of the medians "
                      f"{med[('lottery_broadcast', key)] / med[('lottery_seed', key)]:.3f}; "
                      f"run by run median {statistics.median(pairs):.3f} "
                      f"[{min(pairs):.3f}-{max(pairs):.3f}], broadcast dearer in {dearer} of "
                      f"{len(pairs)} runs")
    if a.json:
        Path(a.json).write_text(json.dumps(everything, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
