"""Offline models that generalise across process counts and message sizes (issue 21 item 4;
docs/table.md, "Models that generalise").

From the cells of a sweep (tune.cell_entry dicts: collective, ranks, bytes, times per
algorithm) each model learns, per collective, to rank the algorithms at any (process count,
message size):

- `floor`: the floor lookup of table version 1, the baseline: the winner of the cell of the
  largest swept count <= the count and the largest swept size <= the size (the smallest size
  below them); native below the smallest count.
- `trees`: gradient-boosted regression trees (scikit-learn), one per algorithm, predicting its
  log time relative to native's in the same cell from the features (log2 ranks, log2 bytes,
  log2 nodes, processes per node); the orthogonal mesh layouts, one per phase algorithm over
  the layouts' sizes too (log2 of each mesh size, dimensions), evaluated at every count on that
  count's own layouts (a layout is re-derived per count, not carried over by name).
- `curve`: a fitted performance curve per algorithm (as the Tianhe-2 paper fits them): ridge
  regression of the same target on the features and their squares and products (degree 2).
- `cost`: the registry's cost formulas (src/coll/cost.c, through `autocoll-info --json --size
  --bytes --nodes`) with platform parameters fitted to the cells by non-negative least squares
  of the relative error; native's time, and the algorithms without a formula (native and the
  layouts whose phases run it), from the curve model.
- `ensemble`: trees, curve and (with the formulas) cost together: per algorithm the geometric
  mean of the ratios its members predict.

A model's answer at a point is an ordered list of algorithms, the one predicted fastest first:
those predicted to beat native by more than the margin, native, then the others, at most
MAX_ALGORITHMS in all. It may name algorithms that do not exist at that count (a mesh layout
the count does not factor, a power-of-two-only algorithm): the layer runs the first applicable one of the list
(table version 2, src/select/table.c), and the cross-validation scores exactly that, taking the
first one measured in the held-out cell (the sweep measures every algorithm applicable there).

Leave-one-count-out cross-validation: for each swept count, every model is fitted on the other
counts' cells and scored on the held-out count's cells: penalty = time of its pick / the cell's
best time. The model with the lowest geometric mean penalty over all held-out cells (then the
lowest worst one, then the earlier in MODELS) is chosen per collective, fitted on every cell and
compiled into rules over (ranks interval, bytes interval), each with its ordered list: the
floor lookup's and the model's lists alternately, the floor's first (FloorFirst). The first
algorithm is the floor's unless it cannot run at the count; the model's come in second, fourth,
..., for AUTOCOLL_TABLE_TRY, whose race measures a rule's first few (docs/table.md).
"""

import math
import re

from ..formats.registry import COST_KEYS

NATIVE = "native"
MAX_ALGORITHMS = 8        # src/select/table.h, AC_TABLE_MAX_ALGORITHMS
TRIAL = 3                 # the AUTOCOLL_TABLE_TRY that docs/table.md recommends; --test-ranks
                          # scores it
MODELS = ("floor", "trees", "curve", "cost", "ensemble")
RANKS_REACH = 4           # learned rules are made count by count up to this x the largest swept
                          # count; above it one open band takes the ranking there


class GeneraliseError(RuntimeError):
    pass


def features(ranks, nbytes, ppn):
    """The model inputs of a point: log2 ranks, log2 bytes (0 bytes as 1), log2 nodes, ppn."""
    nodes = -(-ranks // ppn)
    return [math.log2(ranks), math.log2(max(nbytes, 1)), math.log2(nodes), float(ppn)]


def ordered_list(predicted, margin):
    """The ordered list of a point from {algorithm: predicted time / native time}: those below
    1 - margin, fastest first (ties by name), at most MAX_ALGORITHMS - 1, then native, then the
    others, fastest first; MAX_ALGORITHMS in all at most. The layer runs the first applicable
    one, so what follows native only counts for a trial (AUTOCOLL_TABLE_TRY)."""
    ranked = sorted((r, name) for name, r in predicted.items() if name != NATIVE)
    faster = [name for r, name in ranked if r < 1 - margin][:MAX_ALGORITHMS - 1]
    rest = [name for _, name in ranked if name not in faster]
    return (faster + [NATIVE] + rest)[:MAX_ALGORITHMS]


def ranking(cell, margin):
    """A measured cell's ordered list: its winner (tune.winner_of: the fastest, or native where
    that beats native by no more than the margin) first, then ordered_list's order of the
    measured times relative to native's."""
    times, winner = cell["times"], cell["winner"]
    native = times.get(NATIVE)
    if native and native > 0:
        ordered = ordered_list({n: t / native for n, t in times.items()}, margin)
    else:
        ordered = sorted(times, key=times.get)
    return ([winner] + [n for n in ordered if n != winner])[:MAX_ALGORITHMS]


def interleave(first, second):
    """The entries of two ordered lists alternately, first[0] first, each name once, at most
    MAX_ALGORITHMS."""
    out = []
    for i in range(max(len(first), len(second))):
        for names in (first, second):
            if i < len(names) and names[i] not in out:
                out.append(names[i])
    return out[:MAX_ALGORITHMS]


# ---- the models ------------------------------------------------------------------------------

class Floor:
    """Table version 1's floor lookup (tune.collective_rules' semantics), listing the cell's
    ranking (its winner first)."""

    name = "floor"

    def __init__(self, cells, ppn, margin, costs=None):
        self.cells = cells
        self.margin = margin

    def lists(self, points):
        counts = sorted({c["ranks"] for c in self.cells})
        out = []
        for ranks, nbytes in points:
            below = [r for r in counts if r <= ranks]
            if not below:
                out.append([NATIVE])
                continue
            band = sorted((c for c in self.cells if c["ranks"] == below[-1]),
                          key=lambda c: c["bytes"])
            cell = ([c for c in band if c["bytes"] <= nbytes] or band[:1])[-1]
            out.append(ranking(cell, self.margin))
        return out


MESH = re.compile(r"orthogonal_(\d+)(?:x(\d+))?xn_(.+)$")
MAX_LAYOUTS = 1024  # src/coll/orthogonal.c, ORTHOGONAL_MAX_LAYOUTS: the layouts a count offers


def mesh_parts(name):
    """(p1, p2, phase) of an orthogonal layout's name (p2 None in 2D), or None."""
    m = MESH.match(name)
    return (int(m.group(1)), int(m.group(2)) if m.group(2) else None, m.group(3)) if m else None


def mesh_name(p1, p2, phase):
    return f"orthogonal_{p1}xn_{phase}" if p2 is None else f"orthogonal_{p1}x{p2}xn_{phase}"


def layouts(ranks):
    """The orthogonal layouts of `ranks` in the registry's order (src/coll/orthogonal.c,
    layouts_of): every factorization with every size >= 2, the 2D ones (p1, None) by p1, then
    the 3D ones (p1, p2) by p1 then p2; at most MAX_LAYOUTS."""
    divisors = [d for d in range(2, ranks // 2 + 1) if ranks % d == 0]
    out = [(d, None) for d in divisors]
    out += [(d1, d2) for d1 in divisors for d2 in divisors
            if d2 <= ranks // d1 // 2 and (ranks // d1) % d2 == 0]
    return out[:MAX_LAYOUTS]


def mesh_features(ranks, nbytes, ppn, p1, p2):
    """A layout's inputs: the point's features, then log2 of each mesh size (p2 1 in 2D) and the
    number of dimensions."""
    n = ranks / (p1 * (p2 or 1))
    return features(ranks, nbytes, ppn) + [math.log2(p1), math.log2(p2 or 1), math.log2(n),
                                           2.0 if p2 is None else 3.0]


class Learned:
    """One regressor per algorithm of log(time / native time in the same cell); the orthogonal
    layouts (names valid only at the counts they factor) get one regressor per phase algorithm
    over the layouts' sizes as well, so that at any count the model ranks that count's own
    layouts, measured or not (a 3 x 8 x n layout at 48 ranks from layouts of 16, 32 and 64)."""

    def __init__(self, cells, ppn, margin, costs=None):
        self.ppn, self.margin = ppn, margin
        rows, phases = {}, {}
        for c in cells:
            native = c["times"].get(NATIVE)
            if not native or native <= 0:
                continue
            for name, t in c["times"].items():
                if name == NATIVE or t <= 0:
                    continue
                mesh = mesh_parts(name)
                if mesh:
                    p1, p2, phase = mesh
                    x, key, into = mesh_features(c["ranks"], c["bytes"], ppn, p1, p2), phase, phases
                else:
                    x, key, into = features(c["ranks"], c["bytes"], ppn), name, rows
                into.setdefault(key, ([], []))
                into[key][0].append(x)
                into[key][1].append(math.log(t / native))
        self.models = {name: self.regressor().fit(xs, ys) for name, (xs, ys) in rows.items()}
        self.phases = {phase: self.regressor().fit(xs, ys) for phase, (xs, ys) in phases.items()}

    def lists(self, points):
        return [ordered_list(p, self.margin) for p in self.ratios(points)]

    def ratios(self, points):
        """Per point {algorithm: predicted time / native's}."""
        predicted = [{} for _ in points]
        xs = [features(r, b, self.ppn) for r, b in points]
        for name, m in self.models.items():
            for i, y in enumerate(m.predict(xs)):
                predicted[i][name] = math.exp(y)
        shapes = {r: layouts(r) for r in {r for r, _ in points}}
        for phase, m in self.phases.items():
            where = [(i, p1, p2) for i, (r, _) in enumerate(points) for p1, p2 in shapes[r]]
            if not where:
                continue
            ys = m.predict([mesh_features(*points[i], self.ppn, p1, p2) for i, p1, p2 in where])
            for (i, p1, p2), y in zip(where, ys):
                predicted[i][mesh_name(p1, p2, phase)] = math.exp(y)
        return predicted


class Trees(Learned):
    name = "trees"

    @staticmethod
    def regressor():
        from sklearn.ensemble import GradientBoostingRegressor
        return GradientBoostingRegressor(n_estimators=60, max_depth=2, learning_rate=0.2,
                                         random_state=0)


class Curve(Learned):
    name = "curve"

    @staticmethod
    def regressor():
        from sklearn.linear_model import Ridge
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import PolynomialFeatures, StandardScaler
        return make_pipeline(PolynomialFeatures(2), StandardScaler(), Ridge(alpha=1.0))


class Cost:
    """The registry's cost formulas with fitted platform parameters (`costs(collective, ranks,
    bytes)`: {algorithm: its COST_KEYS vector, or None without a formula}); the curve model for
    native's time and for the algorithms without a formula."""

    name = "cost"

    def __init__(self, cells, ppn, margin, costs=None):
        if costs is None:
            raise GeneraliseError("model cost needs the registry's cost formulas "
                                  "(autocoll-info --json --bytes)")
        from sklearn.linear_model import LinearRegression
        self.ppn, self.margin, self.costs = ppn, margin, costs
        self.collective = cells[0]["collective"]
        self.curve = Curve(cells, ppn, margin)
        xs, ys = [], []
        for c in cells:
            vectors = costs(self.collective, c["ranks"], c["bytes"])
            for name, t in c["times"].items():
                v = vectors.get(name)
                if name != NATIVE and v is not None and t > 0:
                    xs.append([x / t for x in v])  # relative error: f . theta / t against 1
                    ys.append(1.0)
        self.theta = (LinearRegression(positive=True, fit_intercept=False).fit(xs, ys).coef_
                      if xs else [0.0] * len(COST_KEYS))
        native = [(features(c["ranks"], c["bytes"], ppn), math.log(c["times"][NATIVE]))
                  for c in cells if c["times"].get(NATIVE, 0) > 0]
        self.native = Curve.regressor().fit([x for x, _ in native], [y for _, y in native])

    def lists(self, points):
        return [ordered_list(p, self.margin) for p in self.ratios(points)]

    def ratios(self, points):
        """Per point {algorithm: predicted time / native's}: the formulas' where they exist,
        the curve's for the others."""
        return [{**curve, **formulas} for curve, formulas
                in zip(self.curve.ratios(points), self.formula_ratios(points))]

    def formula_ratios(self, points):
        """Per point {algorithm: predicted time / native's} of the algorithms with a formula."""
        out = []
        natives = self.native.predict([features(r, b, self.ppn) for r, b in points])
        for (ranks, nbytes), native in zip(points, natives):
            ratios = {}
            for name, v in self.costs(self.collective, ranks, nbytes).items():
                t = sum(a * b for a, b in zip(v, self.theta)) if v is not None else 0.0
                if name != NATIVE and t > 0:
                    ratios[name] = t / math.exp(native)
            out.append(ratios)
        return out


class Ensemble:
    """The learned models together: per algorithm the geometric mean of the ratios that trees,
    curve and (with the formulas) cost predict, over those that predict it (cost only where
    the algorithm has a formula: elsewhere it would repeat the curve). Each member errs
    where its own form does not fit (the trees keep the last count's shape beyond it, the curve
    and the formulas follow a trend too far); their mean keeps an algorithm that one of them
    misjudges from being ranked by that one alone."""

    name = "ensemble"

    def __init__(self, cells, ppn, margin, costs=None):
        self.margin = margin
        self.members = [Trees(cells, ppn, margin)]
        if costs is None:
            self.members.append(Curve(cells, ppn, margin))
        else:  # the cost model fits the same curve: it is the curve member too
            cost = Cost(cells, ppn, margin, costs)
            self.members += [cost.curve, cost]

    def lists(self, points):
        out = []
        each = [m.formula_ratios(points) if isinstance(m, Cost) else m.ratios(points)
                for m in self.members]
        for predicted in zip(*each):
            logs = {}
            for ratios in predicted:
                for name, r in ratios.items():
                    if r > 0:
                        logs.setdefault(name, []).append(math.log(r))
            out.append(ordered_list({n: math.exp(sum(v) / len(v)) for n, v in logs.items()},
                                    self.margin))
        return out


MODEL_CLASSES = {m.name: m for m in (Floor, Trees, Curve, Cost, Ensemble)}


class FloorFirst:
    """What a table's rule lists for a fitted model: the floor lookup's list and the model's,
    alternately, the floor's first (interleave). Over the 43 test cells of
    docs/results/generalise-2026-11-24 the floor's first pick was the best single guess; where
    it cannot run, and in a trial of the first few, the model's come in."""

    def __init__(self, model, cells, ppn, margin):
        self.model = model
        self.floor = Floor(cells, ppn, margin)

    def lists(self, points):
        return [interleave(f, m) for f, m in zip(self.floor.lists(points),
                                                 self.model.lists(points))]


def fit(model, cells, ppn, margin, costs=None):
    """`model` (a MODELS name) fitted on one collective's cells (`costs`: Cost's)."""
    try:
        return MODEL_CLASSES[model](cells, ppn, margin, costs)
    except ImportError as e:
        raise GeneraliseError(f"model {model} needs scikit-learn ({e}): pip install "
                              f"scikit-learn, or --model floor") from e


def available(costs):
    """The models that can be fitted: every one of MODELS, cost only with cost formulas."""
    return tuple(m for m in MODELS if m != "cost" or costs is not None)


# ---- scoring -----------------------------------------------------------------------------------

def pick(ordered, cell):
    """What the layer runs in a measured cell: the first algorithm of the list measured there
    (native is measured in every cell)."""
    return next(name for name in ordered + [NATIVE] if name in cell["times"])


def trial_pick(ordered, cell, tries):
    """What AUTOCOLL_TABLE_TRY=tries settles on in a measured cell if its race measures without
    error: the fastest of the list's first `tries` algorithms measured there and native."""
    tried = [name for name in ordered if name in cell["times"]][:tries] + [NATIVE]
    return min(tried, key=lambda name: (cell["times"][name], name != NATIVE))


def scored(ordered, cell, tries=1):
    """(picked algorithm, time of the pick / the cell's best time) of a list in a measured
    cell: its first pick, or with tries > 1 the trial's (trial_pick)."""
    chosen = pick(ordered, cell) if tries == 1 else trial_pick(ordered, cell, tries)
    return chosen, cell["times"][chosen] / min(cell["times"].values())


def penalties(model, cells, tries=1):
    """[(cell, picked algorithm, penalty)] of a fitted model in measured cells (scored)."""
    lists = model.lists([(c["ranks"], c["bytes"]) for c in cells])
    return [(c, *scored(ordered, c, tries)) for c, ordered in zip(cells, lists)]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def cross_validate(cells, ppn, margin, models=None, costs=None):
    """Leave-one-count-out cross-validation of one collective's cells: rows {model, held_out,
    cells, geomean, worst} per model (default: every one available) and held-out count, then
    one with held_out "all" per model. Empty with fewer than two counts (nothing to hold out)."""
    models = models or available(costs)
    counts = sorted({c["ranks"] for c in cells})
    if len(counts) < 2:
        return []
    rows = []
    for name in models:
        every = []
        for held in counts:
            train = [c for c in cells if c["ranks"] != held]
            test = [c for c in cells if c["ranks"] == held]
            scores = [p for _, _, p in penalties(fit(name, train, ppn, margin, costs), test)]
            every += scores
            rows.append({"model": name, "held_out": held, "cells": len(scores),
                         "geomean": geomean(scores), "worst": max(scores)})
        rows.append({"model": name, "held_out": "all", "cells": len(every),
                     "geomean": geomean(every), "worst": max(every)})
    return rows


def choose(rows, models=MODELS):
    """The model of the cross-validation rows with the lowest geomean penalty over every held-out
    cell, then the lowest worst, then the first in `models`; floor without rows."""
    overall = {r["model"]: r for r in rows if r["held_out"] == "all"}
    if not overall:
        return "floor"
    return min(overall, key=lambda m: (round(overall[m]["geomean"], 9),
                                       round(overall[m]["worst"], 9), models.index(m)))


def table_model(name, cells, ppn, margin, costs=None):
    """What a table's rules list for the model `name` fitted on `cells`: the floor lookup's
    lists, or for another model FloorFirst's."""
    if name == "floor":
        return Floor(cells, ppn, margin)
    return FloorFirst(fit(name, cells, ppn, margin, costs), cells, ppn, margin)


def evaluate(models, train, test, ppn, margin, costs=None, table=None):
    """Rows {model, ranks, bytes, picked, penalty, oracle, trial_picked, trial_penalty} of each
    model fitted on `train` and scored on the cells of `test` (counts never used to fit:
    `autocoll tune --test-ranks`): its first pick, and a trial of TRIAL (scored). With
    `table` (the model a table's rules come from) the rules' own lists too, as model "table"
    (table_model)."""
    fitted = [(name, fit(name, train, ppn, margin, costs)) for name in models]
    if table is not None:
        fitted.append(("table", table_model(table, train, ppn, margin, costs)))
    points = [(c["ranks"], c["bytes"]) for c in test]
    rows = []
    for name, model in fitted:
        for c, ordered in zip(test, model.lists(points)):
            (chosen, p), (tried, q) = scored(ordered, c), scored(ordered, c, TRIAL)
            rows.append({"model": name, "ranks": c["ranks"], "bytes": c["bytes"],
                         "picked": chosen, "penalty": p,
                         "oracle": min(c["times"], key=c["times"].get),
                         "trial_picked": tried, "trial_penalty": q})
    return rows


# ---- compiling a model into rules -------------------------------------------------------------

def byte_points(sizes):
    """The lower ends of the byte intervals: the swept sizes and the powers of two between the
    smallest and the largest; the first interval starts at 0, the last is open."""
    lo, hi = min(sizes), max(sizes)
    points = set(sizes) | {1 << k for k in range(64) if lo < (1 << k) < hi}
    return sorted(points)


def compile_rules(collective, model, cells):
    """Rules (table version 2) of a fitted learned model (table_model's): for every count from
    1 to RANKS_REACH x the largest swept (then one open band at that point), for every byte
    interval, the model's ordered list at its lower end (the first interval at the smallest
    size, from 0 bytes).
    Adjacent byte intervals with equal lists merge within a count, then adjacent counts with
    equal rules."""
    sizes = byte_points(sorted({c["bytes"] for c in cells}))
    spans = [[s, sizes[i + 1] - 1 if i + 1 < len(sizes) else None] for i, s in enumerate(sizes)]
    spans[0][0] = 0
    top = RANKS_REACH * max(c["ranks"] for c in cells)
    counts = list(range(1, top + 2))  # top + 1 stands for the open band
    lists = model.lists([(r, s) for r in counts for s in sizes])
    bands = []
    for i, ranks in enumerate(counts):
        shape = []
        for j, span in enumerate(spans):
            ordered = lists[i * len(sizes) + j]
            if shape and shape[-1][1] == ordered:
                shape[-1][0][1] = span[1]
            else:
                shape.append(([span[0], span[1]], ordered))
        hi = None if ranks == top + 1 else ranks
        if bands and bands[-1][1] == shape:
            bands[-1][0][1] = hi
        else:
            bands.append(([ranks, hi], shape))
    return [{"collective": collective, "ranks": list(span), "bytes": list(b),
             "algorithms": list(ordered)} for span, shape in bands for b, ordered in shape]


# ---- text --------------------------------------------------------------------------------------

def cv_text(collective, rows, chosen):
    """The cross-validation table of one collective, and the chosen model."""
    if not rows:
        return [f"{collective}: one process count swept, no cross-validation: model {chosen}"]
    lines = [f"{collective}: leave-one-count-out cross-validation (penalty = time of the pick / "
             f"the cell's best time)",
             f"  {'model':8} {'held out':>8} {'cells':>5} {'geomean':>8} {'worst':>8}"]
    for r in rows:
        lines.append(f"  {r['model']:8} {str(r['held_out']):>8} {r['cells']:5d} "
                     f"{r['geomean']:8.4f} {r['worst']:8.4f}")
    lines.append(f"  chosen: {chosen}")
    return lines


def test_text(collective, rows):
    """Per model and test count: each cell's penalty and pick, and a trial's, then geomean and
    worst of each."""
    lines = [f"{collective}: fitted on the swept counts, applied at the test counts (penalty = "
             f"time of the pick / the cell's best time; trial: the best of the list's first "
             f"{TRIAL} and native, AUTOCOLL_TABLE_TRY={TRIAL}'s choice when its race measures "
             f"without error; table: the rules' own lists)"]
    for model in dict.fromkeys(r["model"] for r in rows):
        mine = [r for r in rows if r["model"] == model]
        for r in mine:
            lines.append(f"  {model:8} {r['ranks']:5d} ranks {r['bytes']:>9} B  "
                         f"{r['penalty']:7.4f}  {r['picked']}; trial {r['trial_penalty']:7.4f} "
                         f" {r['trial_picked']} (best {r['oracle']})")
        scores = [r["penalty"] for r in mine]
        trials = [r["trial_penalty"] for r in mine]
        lines.append(f"  {model:8} geomean {geomean(scores):.4f} worst {max(scores):.4f}; "
                     f"trial geomean {geomean(trials):.4f} worst {max(trials):.4f}")
    return lines
