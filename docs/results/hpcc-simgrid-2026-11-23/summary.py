"""summary.py RUNS - the table of README.md from run.sh's runs: per platform and rank count,
HPCC's own MPIFFT figure (Gflop/s, from its hpccoutf.txt) under each configuration, its ratio
to SMPI's Open MPI and MPICH selectors run natively (> 1: faster than that selector), and the
algorithms the layer ran for MPI_Alltoall (from the layer's JSON report: calls per algorithm).

Simulated time with smpi/simulate-computation:no: MPIFFT's computation costs nothing, so its
Gflop/s is its floating-point work over the time its messages take (the alltoalls and the
few small collectives), not a rate a real machine would reach."""

import json
import sys
from pathlib import Path

ORDER = ["native-ompi", "native-mpich", "table-ompi", "table-mpich", "star-ompi", "star-mpich",
         "race-ompi", "race-mpich", "lottery-ompi", "lottery-mpich", "model-ompi", "model-mpich"]


def hpcc_values(path):
    """The key=value lines of HPCC's summary section."""
    out = {}
    for line in path.read_text(errors="replace").splitlines():
        key, eq, value = line.partition("=")
        if eq and key.isidentifier():
            out[key] = value
    return out


def alltoall_runs(report):
    """{algorithm: calls} of MPI_Alltoall on the world communicator of a layer report."""
    data = json.loads(report.read_text())
    for comm in data["communicators"]:
        a2a = comm.get("collectives", {}).get("alltoall")
        if comm.get("name") == "MPI_COMM_WORLD" and a2a:
            return {name: v["calls"] for name, v in a2a["algorithms"].items()}
    return {}


def main(runs):
    for case in sorted(p for p in Path(runs).iterdir() if p.is_dir()):
        rows = {}
        for d in case.iterdir():
            if (d / "hpccoutf.txt").exists():
                v = hpcc_values(d / "hpccoutf.txt")
                rows[d.name] = (float(v["MPIFFT_Gflops"]), v.get("MPIFFT_N"),
                                alltoall_runs(d / "report.json"))
        if "native-ompi" not in rows or "native-mpich" not in rows:
            continue
        n = rows["native-ompi"][1]
        print(f"{case.name}: HPCC MPIFFT, {n} points (simulated time, computation free)")
        print(f"  {'configuration':<15} {'Gflop/s':>10} {'/ ompi':>7} {'/ mpich':>8}  "
              "MPI_Alltoall calls per algorithm")
        base_o, base_m = rows["native-ompi"][0], rows["native-mpich"][0]
        for name in [n for n in ORDER if n in rows] + sorted(set(rows) - set(ORDER)):
            g, _, algs = rows[name]
            runs_text = ", ".join(f"{a} {c}" for a, c in sorted(algs.items()))
            print(f"  {name:<15} {g:>10.3f} {g / base_o:>7.3f} {g / base_m:>8.3f}  {runs_text}")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
