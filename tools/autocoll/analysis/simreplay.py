"""`autocoll simgrid replay`: the run-time strategies replayed over a cell's measured per-call
times (bench/strategy_replay.c), for platforms where simulating their learning call by call
costs hours.

A cell of `autocoll bench --simgrid ... --sync barrier` measures native and every fixed
algorithm of a context. Without noise a simulated call's time depends on its algorithm and
hardly on what ran before, so the replay runs each strategy's own code (the layer's
src/select/) over that candidate list and gives every call the measured time of the candidate
it chose, plus one agreement's time (a small native allreduce on the same platform and ranks)
for each agreement the strategy made in it. `--noise detour:PROB:MEAN` adds the driver's noise
model: before each call every rank waits, with probability PROB, an exponential delay of mean
MEAN, and the call waits for the longest (a synchronising collective's last rank).

`--candidates NAMES` replays the strategies over those candidates and native only (the others
are left out as `AUTOCOLL_TABLE_TRY` leaves out all but a rule's first few); the ratios stay
against the whole cell's oracle.

`--suggest NAMES` gives the strategies a table's rule for the cell, best first (what the layer
gives them where `AUTOCOLL_TABLE` has a rule but no cell for the context): the `model`
strategy measures those first (docs/model.md); the others ignore them.

`--compare` checks the replay against cells that also ran the strategies in the simulation
(the 16- and 64-rank cells): per strategy, the simulated and the replayed whole-run / oracle,
steady / oracle, decision length and choice, side by side (docs/simgrid.md says how close they
were).
"""

import json
import os
import statistics
import subprocess
from pathlib import Path

from ..formats import paths
from ..formats.schemas import BENCH_SCHEMA
from ..run import info as registry_info
from ..run import simgrid as smpi

LAYERS = ("star_enhanced", "star_basic", "lottery", "race", "model")
MAX_MEASURED = 64   # per candidate, as bench/strategy_replay.c reads them
STEADY_CALLS = 100  # the driver's steady window (bench/autocoll_bench.c)


class ReplayError(Exception):
    pass


def replay_program(build=None):
    program = paths.environment_build("openmpi", build) / "bench" / "strategy_replay"
    if not program.exists():
        raise ReplayError(f"{program} not found: run scripts/build")
    return program


_FINGERPRINTS = {}


def build_fingerprint(program):
    """The registry fingerprint of the build whose strategy_replay is `program` (its
    autocoll-info's); None where that cannot be read."""
    info = Path(program).parent.parent / "autocoll-info"
    if info not in _FINGERPRINTS:
        try:
            _FINGERPRINTS[info] = registry_info.load("openmpi", info=info)["registry_fingerprint"]
        except (OSError, ValueError, KeyError, subprocess.CalledProcessError):
            _FINGERPRINTS[info] = None
    return _FINGERPRINTS[info]


def parse_noise(text):
    """'none' or 'detour:PROB:MEAN' -> (prob, mean)."""
    if text in (None, "none"):
        return 0.0, 0.0
    parts = text.split(":")
    try:
        if parts[0] != "detour" or len(parts) != 3:
            raise ValueError
        prob, mean = float(parts[1]), float(parts[2])
    except ValueError:
        raise ReplayError(f"--noise {text}: not none or detour:PROB:MEAN") from None
    if not (0.0 < prob <= 1.0 and mean >= 0.0):
        raise ReplayError(f"--noise {text}: PROB must be in (0, 1], MEAN >= 0")
    return prob, mean


def read_cell(path):
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise ReplayError(f"{path}: not a cell: {e}") from None
    if data.get("schema") != BENCH_SCHEMA or "configurations" not in data:
        raise ReplayError(f"{path}: not a cell of `autocoll bench`")
    return data


def measured(config):
    """A configuration's per-call times for the replay: its last MAX_MEASURED calls."""
    return config["times"][-MAX_MEASURED:]


def native_median(data):
    return [c for c in data["configurations"] if c["kind"] == "native"][0]["median"]


def agreement_seconds(path, data, given):
    """Seconds of one agreement: `given` (a number, or a cell whose native median it is), else
    the native median of the allreduce of 8 bytes on the same platform, ranks and selector
    (this cell, or its sibling file in the folder)."""
    if given is not None:
        try:
            return float(given)
        except ValueError:
            return native_median(read_cell(given))
    p = data["parameters"]
    if p["collective"] == "allreduce" and p["bytes"] == 8:
        return native_median(data)
    name = f"allreduce-8-np{data['machine']['ranks']}-{data['simgrid']['selector']}.json"
    sibling = Path(path).parent / name
    if not sibling.exists():
        raise ReplayError(f"{path}: no {name} beside it for the agreement's time: give "
                          "--agreement SECONDS or --agreement CELL")
    return native_median(read_cell(sibling))


def start_seconds(data):
    """What the layer's first call costs beyond native's cold call (the layer makes its private
    communicator and agrees on its state then): the `native` layer configuration's first call
    (layers run without warm-up) against native's first call; None where the cell lacks either
    (cells made before the driver recorded first calls)."""
    configs = {c["name"]: c for c in data["configurations"]}
    layer, native = configs.get("layer:native"), configs.get("native")
    if not layer or not native or native.get("first_call") is None:
        return None
    return max(0.0, layer["times"][0] - native["first_call"])


def replay_input(data, layers, calls, agreement, noise, seed, warm=False, candidates=None,
                 suggest=(), describe=False):
    """The replay program's input; with `candidates` (names) the cell's measured calls of
    those and native only, the others left out of the candidate list; `suggest`: a table's
    rule for the cell (names, best first); `describe`: each layer's output also holds the
    strategy's description of itself after the last call."""
    p = data["parameters"]
    lines = [f"collective {p['collective']}", f"ranks {data['machine']['ranks']}",
             f"ppn {data.get('simgrid', {}).get('ppn', 1)}", f"bytes {p['bytes']}",
             f"calls {calls}", f"agreement {agreement!r}", f"seed {seed}"]
    if noise[0] > 0:
        lines.append(f"noise {noise[0]!r} {noise[1]!r}")
    if warm:
        lines.append("warm 1")
    if describe:
        lines.append("describe 1")
    if candidates is not None:
        lines.append("subset 1")
    lines += [f"suggest {name}" for name in suggest]
    for c in data["configurations"]:
        if c["kind"] == "fixed" and candidates is not None and c["name"] not in candidates:
            continue
        if c["kind"] in ("native", "fixed"):
            lines.append(f"candidate {c['name']} " + " ".join(repr(t) for t in measured(c)))
            if c.get("first_call") is not None:
                lines.append(f"cold {c['name']} {c['first_call']!r}")
    start = start_seconds(data)
    if start is not None:
        lines.append(f"start {start!r}")
    lines += [f"layer {name}" for name in layers]
    return "\n".join(lines) + "\n"


def parse_settings(texts):
    """--set NAME=VALUE arguments -> {NAME: VALUE}; the layer checks the values themselves."""
    out = {}
    for text in texts or []:
        name, eq, value = text.partition("=")
        if not eq or not name.startswith("AUTOCOLL_") or not value:
            raise ReplayError(f"--set {text}: not AUTOCOLL_NAME=VALUE")
        out[name] = value
    return out


def run_replay(program, text, settings=None):
    """The replay program on `text`; the strategies' parameters are the settings' defaults,
    except those of `settings` (none of the caller's AUTOCOLL_* environment)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTOCOLL_")}
    env.update(settings or {})
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    proc = subprocess.run([str(program)], input=text, capture_output=True, text=True, env=env,
                          timeout=600)
    if proc.returncode != 0:
        raise ReplayError(f"{program.name} failed (exit {proc.returncode}): "
                          f"{proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout)


def oracle_of(data):
    best = min((c for c in data["configurations"] if c["kind"] in ("native", "fixed")),
               key=lambda c: c["median"])
    return best


def layer_row(name, times, decision, chosen, oracle):
    steady = statistics.median(times[-STEADY_CALLS:])
    mean = sum(times) / len(times)
    return {"layer": name, "mean_seconds": mean, "steady_seconds": steady,
            "whole_vs_oracle": mean / statistics.mean(oracle["times"]),
            "steady_vs_oracle": steady / oracle["median"], "decision": decision,
            "chosen": chosen,
            "learning_cost_oracle_calls": (sum(times) - len(times) * oracle["median"])
            / oracle["median"]}


def first_runs(names, choices):
    """The candidates (names) in the order of their first call among `choices` (indices)."""
    seen = []
    for i in choices:
        if names[i] not in seen:
            seen.append(names[i])
    return seen


def simulated_rows(data, oracle):
    """The rows of the strategies that ran in the simulation (by their layer name)."""
    rows = {}
    for c in data["configurations"]:
        if c["kind"] != "layer":
            continue
        layer = c["layer"]
        name = c["name"].split(":", 1)[1]
        ctx = layer.get("contexts") or []
        decision = ctx[0].get("decision_calls") if ctx else None
        chosen = ctx[0].get("chosen") if ctx else None
        rows[name] = layer_row(name, c["times"], decision, chosen, oracle)
    return rows


def replay_cell(path, program, layers, calls, agreement, noise, seed, warm=False,
                settings=None, candidates=None, suggest=(), describe=False):
    """The strategies replayed over one cell. Without noise every ratio is against the cell's
    measured oracle and natives (as `autocoll simgrid report` takes them from a simulated
    cell). With noise the oracle and native are replayed too, their measured calls under the
    same delays (the same seed: call k waits the same in every run), and the ratios are
    against those: the mpich selector's native as the ompi one's plus the difference of their
    medians (the delay adds to whatever runs). `candidates`: the strategies choose among those
    and native only (replay_input), still against the cell's oracle; a cell that records
    algorithms left out (`parameters.excluded`) is replayed as with the measured ones as
    candidates, and so is a cell measured by a build of another registry (its fingerprint:
    algorithms added since would otherwise count as unmeasured). `suggest`: a table's rule for
    the cell, best first (the model strategy measures those first)."""
    data = read_cell(path)
    agree = agreement_seconds(path, data, agreement)
    oracle = oracle_of(data)
    sel = data.get("simgrid", {}).get("selector")
    settings = dict(settings or {})  # the library's phases priced by the cell's selector's rules
    settings.setdefault("AUTOCOLL_MODEL_STAND_INS", smpi.stand_ins_of(sel))
    noisy = noise[0] > 0
    baselines = [f"fixed:{oracle['name']}", "fixed:native"] if noisy else []
    if candidates is not None:
        missing = sorted(set(candidates) - {c["name"] for c in data["configurations"]})
        if missing:
            raise ReplayError(f"{path}: --candidates {','.join(missing)}: not measured there")
    together = baselines if candidates is None else []  # the oracle may not be a candidate
    # algorithms the cell left out (`autocoll bench --exclude`), or a cell of another registry
    # (the replay's build has algorithms the cell's did not): the strategies choose among the
    # measured ones, as with --candidates, and never pay for the others
    excluded = list(data["parameters"].get("excluded") or [])
    cell_registry = data["machine"].get("registry_fingerprint")
    other_registry = cell_registry is not None and \
        build_fingerprint(program) not in (None, cell_registry)
    chosen_from = candidates
    if (excluded or other_registry) and candidates is None:
        chosen_from = [c["name"] for c in data["configurations"] if c["kind"] == "fixed"]
    out = run_replay(program, replay_input(data, list(layers) + together, calls, agree, noise,
                                           seed, warm, chosen_from, suggest, describe), settings)
    if baselines and candidates is not None:  # the oracle and native alone: the cell may lack
        # algorithms none of the candidates needs (a cell simulated without its slowest ones)
        out["layers"] += run_replay(program, replay_input(data, baselines, calls, agree, noise,
                                                          seed, candidates=[oracle["name"]]),
                                    settings)["layers"]
    natives = {sel: native_median(data)}
    for other in ("ompi", "mpich"):
        sibling = Path(path).with_name(Path(path).name.replace(f"-{sel}.json", f"-{other}.json"))
        if other not in natives and sibling != Path(path) and sibling.exists():
            natives[other] = native_median(read_cell(sibling))
    if noisy:
        by_name = {r["layer"]: r["times"] for r in out["layers"]}
        ref = by_name[baselines[0]]
        reference = {"times": ref, "median": statistics.median(ref[-STEADY_CALLS:])}
        native_steady = statistics.median(by_name["fixed:native"][-STEADY_CALLS:])
        steady_natives = {k: native_steady - natives[sel] + v for k, v in natives.items()}
    else:
        reference = oracle
        steady_natives = natives
    replayed = [r for r in out["layers"] if r["layer"] in layers]
    rows = [layer_row(r["layer"], r["times"], r["decision_calls"], r["chosen"], reference)
            for r in replayed]
    if describe:
        for row, r in zip(rows, replayed):
            row["measured"] = first_runs(out["candidates"], r["choices"])
            row["state"] = r.get("state", {})
    for row in rows:
        steady = row["steady_vs_oracle"] * reference["median"]
        row["vs_native"] = {k: steady / v for k, v in steady_natives.items()}
    p = data["parameters"]
    return {"cell": Path(path).name, "platform": data.get("simgrid", {}).get("platform"),
            "collective": p["collective"], "bytes": p["bytes"], "ranks": data["machine"]["ranks"],
            "selector": sel, "oracle": oracle["name"],
            "oracle_median": oracle["median"], "agreement_seconds": agree,
            "start_seconds": start_seconds(data), "native_medians": natives,
            "noisy_oracle_median": reference["median"] if noisy else None,
            "candidates": len(out["candidates"]), "candidate_subset": candidates,
            "excluded": excluded, "cell_registry_differs": other_registry,
            "suggested": list(suggest),
            "replayed": rows,
            "simulated": {} if noisy else simulated_rows(data, oracle),
            **({"medians": {c["name"]: c["median"] for c in data["configurations"]
                            if c["kind"] in ("native", "fixed")}} if describe else {})}


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def print_cell(r, compare):
    noisy = "" if r["noisy_oracle_median"] is None else \
        f" ({r['noisy_oracle_median'] * 1e6:.2f} us under the noise: the ratios' base)"
    print(f"{r['platform']} {r['collective']} {r['bytes']} B, {r['ranks']} ranks "
          f"({r['selector']} selector): {r['candidates']} candidates, oracle {r['oracle']} "
          f"{r['oracle_median'] * 1e6:.2f} us{noisy}"
          f"{', left out: ' + ','.join(r['excluded']) if r.get('excluded') else ''}, agreement "
          f"{r['agreement_seconds'] * 1e6:.2f} us")
    sels = sorted(r["native_medians"])
    head = ["strategy", "whole/oracle", "steady/oracle", "decision", "learning cost"] + \
        [f"steady/native({s})" for s in sels] + ["chosen"]
    if compare:
        head = ["strategy", "whole/oracle sim", "replay", "steady/oracle sim", "replay",
                "decision sim", "replay", "chosen sim", "replay"]
    print("  " + " | ".join(head))
    for row in r["replayed"]:
        if compare:
            s = r["simulated"].get(row["layer"])
            if not s:
                continue
            cols = [row["layer"], fmt(s["whole_vs_oracle"]), fmt(row["whole_vs_oracle"]),
                    fmt(s["steady_vs_oracle"]), fmt(row["steady_vs_oracle"]),
                    fmt(s["decision"]), fmt(row["decision"]), fmt(s["chosen"]),
                    fmt(row["chosen"])]
        else:
            cols = [row["layer"], fmt(row["whole_vs_oracle"]), fmt(row["steady_vs_oracle"]),
                    fmt(row["decision"]), f"{row['learning_cost_oracle_calls']:.0f} oracle calls"]
            cols += [fmt(row["vs_native"].get(s)) for s in sels] + [fmt(row["chosen"])]
        print("  " + " | ".join(cols))
    for row in r["replayed"]:
        if "measured" in row:
            print("\n".join(describe_lines(row, r.get("medians", {}), r["oracle_median"])))


DESCRIBED_PREDICTIONS = 12  # --describe: the fastest predictions shown


def describe_lines(row, medians, oracle):
    """--describe: what a replayed strategy measured, in order, each with its median over the
    oracle; for a strategy with a fitted platform (model) the parameters and its fastest
    predictions beside their measured medians."""
    def ratio(name):
        return fmt(medians[name] / oracle) if name in medians else "-"

    lines = [f"  {row['layer']} measured, in order: " +
             ", ".join(f"{n} ({ratio(n)})" for n in row["measured"])]
    state = row.get("state") or {}
    if state.get("platform"):
        lines.append(f"  {row['layer']} fitted platform: " +
                     ", ".join(f"{k} {v:.3g}" for k, v in state["platform"].items()))
    predicted = sorted((v, k) for k, v in (state.get("predicted") or {}).items() if v > 0)
    if predicted:
        lines.append(f"  {row['layer']} fastest predictions (us, then measured / oracle):")
        lines += [f"    {v * 1e6:9.2f}  {ratio(k):>6}  {k}"
                  for v, k in predicted[:DESCRIBED_PREDICTIONS]]
    return lines


def agreement_summary(results):
    """--compare over many cells: per strategy, the cells where the replay decided in as many
    calls and chose the same, and the replayed whole run / oracle over the simulated one."""
    lines = ["replay against simulation, per strategy: cells | same decision length | same "
             "choice | replayed/simulated whole run: median, min, max | steady/oracle, replayed "
             "- simulated: median, largest difference"]
    names = []
    for r in results:
        names += [row["layer"] for row in r["replayed"] if row["layer"] not in names]
    for name in names:
        pairs = [(row, r["simulated"][name]) for r in results for row in r["replayed"]
                 if row["layer"] == name and name in r["simulated"]]
        if not pairs:
            continue
        ratios = sorted(rep["whole_vs_oracle"] / sim["whole_vs_oracle"] for rep, sim in pairs)
        same_decision = sum(rep["decision"] == sim["decision"] for rep, sim in pairs)
        same_choice = sum(rep["chosen"] == sim["chosen"] for rep, sim in pairs)
        steady = sorted(rep["steady_vs_oracle"] - sim["steady_vs_oracle"] for rep, sim in pairs)
        lines.append(f"  {name} | {len(pairs)} | {same_decision} | {same_choice} | "
                     f"{statistics.median(ratios):.3f}, {ratios[0]:.3f}, {ratios[-1]:.3f} | "
                     f"{statistics.median(steady):+.3f}, "
                     f"{max(steady, key=abs):+.3f}")
    return lines
