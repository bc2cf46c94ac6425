"""A configuration table (`autocoll tune`, docs/table.md) in the native libraries' own formats
(Open MPI's dynamic rules, MPICH's selection JSON and CVARs): the translation behind `autocoll
export` (commands/export.py says what each format is and how it is used)."""

import copy
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..formats import jsonfile
from ..formats.schemas import TABLE_SCHEMA, TABLE_VERSIONS

NATIVE = "native"


class ExportError(RuntimeError):
    pass


@dataclass(frozen=True)
class Native:
    """A native algorithm: its name (MPICH: the CVAR value), Open MPI's coll_tuned number, the
    segment size Open MPI's rules give it, and the communicator sizes (RANK_CONDITIONS) where it
    runs the same schedule as the autocoll algorithm mapped to it."""
    name: str
    number: int = 0
    segsize: int = 0
    ranks: str = "any"


RANK_CONDITIONS = {
    "any": lambda p: True,
    "power_of_two": lambda p: p > 0 and p & (p - 1) == 0,
    "not_power_of_two": lambda p: p > 0 and p & (p - 1) != 0,
    "at_most_32": lambda p: p <= 32,  # MPICH's MPIR_CVAR_ALLTOALL_THROTTLE default
}

# autocoll algorithm -> the native algorithm with the same schedule, checked against the native
# sources (docs/table.md says how each was checked and what differs besides the schedule).
# Open MPI 4.1.4: the coll_tuned algorithm numbers that `ompi_info --param coll tuned --level 9`
# lists. MPICH 4.0.2: the MPIR_CVAR_<COLL>_INTRA_ALGORITHM values (MPIR_<Coll>_intra_<name>).
SEGMENTS = {"1k": 1024, "8k": 8192, "64k": 65536}
MAPPING = {
    "openmpi": {
        "allgather": {"bruck": Native("bruck", 2),
                      "recursive_doubling": Native("recursive_doubling", 3, ranks="power_of_two"),
                      "ring": Native("ring", 4)},
        "allreduce": {"recursive_doubling": Native("recursive_doubling", 3),
                      "ring": Native("ring", 4)},
        "alltoall": {"simple": Native("basic_linear", 1), "ring": Native("pairwise", 2),
                     "bruck": Native("modified_bruck", 3)},
        "barrier": {"linear": Native("linear", 1),
                    "recursive_doubling": Native("recursive_doubling", 3),
                    "dissemination": Native("bruck", 4)},
        "bcast": {"flat_tree": Native("basic_linear", 1),
                  "chain_tree": Native("pipeline", 3),
                  **{f"chain_tree_segment_{k}": Native("pipeline", 3, v)
                     for k, v in SEGMENTS.items()},
                  "knomial_tree_k4": Native("knomial", 7),
                  **{f"knomial_tree_k4_segment_{k}": Native("knomial", 7, v)
                     for k, v in SEGMENTS.items()},
                  "scatter_recursive_doubling_allgather":
                      Native("scatter_allgather", 8, ranks="power_of_two"),
                  "scatter_ring_allgather": Native("scatter_allgather_ring", 9)},
    },
    "mpich": {
        "allgather": {"bruck": Native("brucks"),
                      "recursive_doubling": Native("recursive_doubling", ranks="power_of_two"),
                      "ring": Native("ring")},
        "allreduce": {"recursive_doubling": Native("recursive_doubling")},
        "alltoall": {"bruck": Native("brucks"),
                     "pair": Native("pairwise", ranks="power_of_two"),
                     "ring": Native("pairwise", ranks="not_power_of_two"),
                     "simple": Native("scattered", ranks="at_most_32")},
        "barrier": {"dissemination": Native("dissemination")},
        "bcast": {"binomial_tree": Native("binomial"),
                  "scatter_recursive_doubling_allgather":
                      Native("scatter_recursive_doubling_allgather", ranks="power_of_two"),
                  "scatter_ring_allgather": Native("scatter_ring_allgather")},
        "reduce": {"binomial_tree": Native("binomial")},
    },
}
LIBRARY_NAMES = {"openmpi": "Open MPI", "mpich": "MPICH"}

# Open MPI 4.1's collective numbers in the rules file (COLLTYPE, coll_base_functions.h).
OMPI_COLLECTIVE_NUMBERS = {"allgather": 0, "allreduce": 2, "alltoall": 3, "barrier": 6,
                           "bcast": 7}

# How each library measures a call's message size, from the table's bytes (docs/guide.md,
# "The report": the block per rank for allgather and alltoall, the vector for allreduce, bcast
# and reduce):
# "bytes" as is, "times_ranks" multiplied by the communicator size, None: no size (barrier).
# Open MPI 4.1 (coll_tuned_decision_dynamic.c): type size x count, alltoall and allgather
# x comm size. MPICH 4.0 (csel.c): avg_msg_size for allreduce, bcast, reduce, alltoall (the
# block); allgather has only total_msg_size (block x comm size).
MESSAGE_SIZE = {
    "openmpi": {"allgather": "times_ranks", "allreduce": "bytes", "alltoall": "times_ranks",
                "barrier": None, "bcast": "bytes"},
    "mpich": {"allgather": "times_ranks", "allreduce": "bytes", "alltoall": "bytes",
              "barrier": None, "bcast": "bytes", "reduce": "bytes"},
}
MPICH_SIZE_KEYS = {"bytes": "avg_msg_size", "times_ranks": "total_msg_size"}

FORMATS = {"ompi-rules": "openmpi", "mpich-json": "mpich", "mpich-ch4-json": "mpich",
           "mpich-cvars": "mpich"}
MAX_BAND_WIDTH = 4096  # communicator sizes one bounded band may span (each exported alone)


# ---- the table ------------------------------------------------------------------------------

def valid_interval(v):
    return (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and v[0] >= 0
            and (v[1] is None or (isinstance(v[1], int) and v[1] >= v[0])))


def rule_names(rule, version):
    """A rule's algorithm names: version 1's "algorithm", version 2's "algorithms"; None when
    they are not a non-empty list of strings."""
    names = [rule.get("algorithm")] if version == 1 else rule.get("algorithms")
    ok = isinstance(names, list) and names and all(isinstance(n, str) for n in names)
    return names if ok else None


LAYOUT_KEYS = ("nodes", "ppn")
ANY_LAYOUT = [1, None]


def load_table(path, ppn=None):
    """The table at `path`; ExportError with the path and the reason when it is not one. Each
    rule gets "preference", its algorithms in order (version 1: its one "algorithm"; version 2:
    its "algorithms"), and "algorithm", the first of them (what notes name). Rules keyed by node
    layout ("nodes", "ppn") need `ppn`, the ranks per node of the cluster the export is for
    (default: the one a simulated sweep ran at, swept_ppn): the native formats key on process
    count only, so each such rule becomes the process counts whose layout (ceil(ranks / ppn)
    nodes, min(ranks, ppn) ranks on the fullest) it covers."""
    data = jsonfile.load(path, TABLE_SCHEMA, ExportError, TABLE_VERSIONS)
    rules = data.get("rules")
    if not isinstance(rules, list):
        raise ExportError(f"{path}: no rules")
    for i, r in enumerate(rules):
        names = rule_names(r, data["version"]) if isinstance(r, dict) else None
        if not (names and isinstance(r.get("collective"), str)
                and valid_interval(r.get("ranks")) and valid_interval(r.get("bytes"))
                and all(valid_interval(r[k]) and r[k][0] >= 1 for k in LAYOUT_KEYS if k in r)):
            raise ExportError(f"{path}: rule {i} is not a rule (docs/table.md)")
        r["algorithm"], r["preference"] = names[0], names
    for i, r in enumerate(rules):
        for j, q in enumerate(rules[:i]):
            if q["collective"] == r["collective"] and overlap(q["ranks"], r["ranks"]) \
                    and overlap(q["bytes"], r["bytes"]) \
                    and all(overlap(q.get(k, ANY_LAYOUT), r.get(k, ANY_LAYOUT))
                            for k in LAYOUT_KEYS):
                raise ExportError(f"{path}: rules {j} and {i} overlap")
    if any(k in r for r in rules for k in LAYOUT_KEYS):
        ppn = ppn or swept_ppn(data)
        if ppn is None:
            raise ExportError(f"{path}: its rules are keyed by node layout (\"nodes\", \"ppn\"), "
                              f"which the native formats cannot say: give the cluster's ranks "
                              f"per node (--ppn N) to export the rules of that layout")
        data["rules"] = [f for f in (flatten(r, ppn) for r in rules) if f]
    return data


def swept_ppn(table):
    """The ranks per node a simulated sweep ran at (`autocoll tune --simgrid --ppn`), which its
    rules' layouts name; None for a table without one."""
    platform = table.get("platform")
    simulated = platform.get("simgrid") if isinstance(platform, dict) else None
    ppn = simulated.get("ppn") if isinstance(simulated, dict) else None
    return ppn if isinstance(ppn, int) and ppn >= 1 else None


def layout_ranks(rule, ppn):
    """The process counts [lo, hi] (hi None: no limit) whose layout at `ppn` ranks a node, block
    placement, rule's "nodes" and "ppn" cover; None when none does."""
    nlo, nhi = rule.get("nodes", ANY_LAYOUT)
    plo, phi = rule.get("ppn", ANY_LAYOUT)
    lo, hi = (nlo - 1) * ppn + 1, None if nhi is None else nhi * ppn
    if phi is not None and ppn > phi:  # min(ranks, ppn) <= phi: ranks <= phi
        hi = phi if hi is None else min(hi, phi)
    elif plo > ppn:  # the fullest node never holds plo
        return None
    lo = max(lo, plo)
    return None if hi is not None and lo > hi else [lo, hi]


def flatten(rule, ppn):
    """`rule` without its layout keys, its ranks narrowed to the counts its layout covers at
    `ppn` ranks a node (layout_ranks); None when it covers none."""
    if not any(k in rule for k in LAYOUT_KEYS):
        return rule
    span = layout_ranks(rule, ppn)
    r = {k: v for k, v in rule.items() if k not in LAYOUT_KEYS}
    if span is None:
        return None
    lo = max(rule["ranks"][0], span[0])
    his = [h for h in (rule["ranks"][1], span[1]) if h is not None]
    hi = min(his) if his else None
    if hi is not None and lo > hi:
        return None
    r["ranks"] = [lo, hi]
    return r


def overlap(a, b):
    return covers(a, b[0]) or covers(b, a[0])


def covers(interval, x):
    lo, hi = interval
    return lo <= x and (hi is None or x <= hi)


def interval_text(lo, hi):
    return f"{lo}+" if hi is None else str(lo) if lo == hi else f"{lo}-{hi}"


# ---- choices ----------------------------------------------------------------------------------

def holds(native, lo, hi):
    """Whether `native` is the same schedule at every communicator size in [lo, hi]."""
    if native.ranks == "any":
        return True
    if hi is None:
        return False
    return all(RANK_CONDITIONS[native.ranks](p) for p in range(lo, hi + 1))


def describe(library, native):
    if native is None:
        return f"{LIBRARY_NAMES[library]}'s own choice"
    text = native.name + (f" ({native.number})" if library == "openmpi" else "")
    return text + (f", segments of {native.segsize} B" if native.segsize else "")


def substitute(library, collective, lo, hi, cells):
    """The best choice by the cells' times among native and the mapped algorithms that hold at
    [lo, hi]: the one with the lowest mean of time / the cell's best time over the cells where
    it ran. Returns (Native or None, autocoll name); None: the library's own choice."""
    candidates = {name: n for name, n in MAPPING[library].get(collective, {}).items()
                  if holds(n, lo, hi)}
    candidates[NATIVE] = None
    scored = []
    for name in candidates:
        if cells and all(name in c["times"] for c in cells):
            score = sum(c["times"][name] / min(c["times"].values()) for c in cells) / len(cells)
            scored.append((score, name != NATIVE, name))
    if not scored:
        return None, NATIVE
    _, _, name = min(scored)
    return candidates[name], name


def choose(library, collective, algorithm, lo, hi, cells):
    """(Native or None for the library's own choice, a note when it is a substitute) for
    `algorithm` at communicator sizes [lo, hi]; `cells` are the table's cells that decided it."""
    if algorithm == NATIVE:
        return None, None
    native = MAPPING[library].get(collective, {}).get(algorithm)
    if native and holds(native, lo, hi):
        return native, None
    if native:
        why = (f"{algorithm} is {LIBRARY_NAMES[library]}'s {native.name} only at "
               f"{native.ranks.replace('_', ' ')} communicator sizes")
    else:
        why = f"{algorithm} has no {LIBRARY_NAMES[library]} equivalent"
    sub, name = substitute(library, collective, lo, hi, cells)
    how = ("the best of native and the mapped algorithms in its cells" if cells
           else "no cells in the table")
    return sub, f"{why}; exported {describe(library, sub)} ({how}: {name})"


def choose_preferred(library, collective, preference, lo, hi, cells):
    """choose() for a rule's algorithms in order of preference: the first that is native or that
    the library holds at [lo, hi] (the library's counterpart of the layer running the first
    applicable one), with a note naming those passed over; when none is, choose() of the first
    (a substitute from the cells)."""
    for k, name in enumerate(preference):
        native = MAPPING[library].get(collective, {}).get(name)
        if name == NATIVE or (native and holds(native, lo, hi)):
            if k == 0:
                return choose(library, collective, name, lo, hi, cells)
            chosen = None if name == NATIVE else native
            return chosen, (f"{', '.join(preference[:k])}: no {LIBRARY_NAMES[library]} "
                            f"equivalent at these sizes; exported the rule's next preference, "
                            f"{describe(library, chosen)}")
    return choose(library, collective, preference[0], lo, hi, cells)


def rule_cells(table, rule):
    return [c for c in table.get("cells", []) if c.get("collective") == rule["collective"]
            and covers(rule["ranks"], c["ranks"]) and covers(rule["bytes"], c["bytes"])]


def segments(rules):
    """Communicator-size segments of one collective's rules, covering 0 and up: (lo, hi, the
    rules covering it in order of bytes), hi None for the last. Bounded segments with rules are
    split into single sizes: message sizes may scale with the size, and some equivalences hold
    only at some sizes."""
    points = sorted({0} | {r["ranks"][0] for r in rules}
                    | {r["ranks"][1] + 1 for r in rules if r["ranks"][1] is not None})
    out = []
    for lo, nxt in zip(points, points[1:] + [None]):
        hi = None if nxt is None else nxt - 1
        covering = sorted((r for r in rules if covers(r["ranks"], lo)),
                          key=lambda r: r["bytes"][0])
        if covering and hi is not None:
            if hi - lo + 1 > MAX_BAND_WIDTH:
                raise ExportError(f"{covering[0]['collective']}: ranks {lo}-{hi} span more than "
                                  f"{MAX_BAND_WIDTH} communicator sizes")
            out += [(p, p, covering) for p in range(lo, hi + 1)]
        else:
            out.append((lo, hi, covering))
    return out


def decisions(table, library, notes):
    """{collective: [(lo, hi, [(bytes_lo, bytes_hi, Native or None)])]}: per communicator-size
    segment the native choice per byte interval (gaps: None), for the collectives the library
    has equivalents for. Substitutions and skipped collectives are appended to `notes`."""
    out = {}
    for coll in dict.fromkeys(r["collective"] for r in table["rules"]):
        if not MAPPING[library].get(coll) or coll not in MESSAGE_SIZE[library]:
            notes.append(f"{coll}: no {LIBRARY_NAMES[library]} equivalents known; not exported "
                         f"(the library keeps its own choice)")
            continue
        rules = [r for r in table["rules"] if r["collective"] == coll]
        segs = []
        for lo, hi, covering in segments(rules):
            def choose_rule(r):
                native, note = choose_preferred(library, coll,
                                                r.get("preference") or [r["algorithm"]], lo, hi,
                                                rule_cells(table, r))
                where = ("" if [lo, hi] == r["ranks"] else f" (at {interval_text(lo, hi)} ranks)")
                text = (f"{coll} ranks {interval_text(*r['ranks'])} bytes "
                        f"{interval_text(*r['bytes'])}{where}: {note}")
                if note and text not in notes:
                    notes.append(text)
                return native
            segs.append((lo, hi, merge_equal(byte_entries(covering, None, choose_rule))))
        out[coll] = segs
    return out


def byte_entries(covering, gap, choose):
    """(bytes_lo, bytes_hi, choice) from 0 up for the rules covering one communicator-size
    segment (in order of bytes): choose(rule) over each rule's bytes, `gap` where none is."""
    entries, at = [], 0
    for r in covering:
        blo, bhi = r["bytes"]
        if blo > at:
            entries.append((at, blo - 1, gap))
        entries.append((blo, bhi, choose(r)))
        at = None if bhi is None else bhi + 1
        if at is None:
            return entries
    entries.append((at, None, gap))
    return entries


def merge_equal(entries):
    """Adjacent (lo, hi, choice) with the same choice merged."""
    out = []
    for lo, hi, choice in entries:
        if out and out[-1][2] == choice:
            out[-1] = (out[-1][0], hi, choice)
        else:
            out.append((lo, hi, choice))
    return out


def scaled(entries, unit, ranks):
    """The byte intervals in the library's message size unit at `ranks` ranks."""
    if unit != "times_ranks":
        return entries
    ranks = max(ranks, 1)  # a band from 0 ranks: no communicator has 0 ranks
    return [(lo * ranks, None if hi is None else (hi + 1) * ranks - 1, c) for lo, hi, c in entries]


# ---- Open MPI rules ---------------------------------------------------------------------------

def ompi_rules(table, source, notes):
    """The text of an Open MPI 4.1 classic rules file. Grammar (coll_tuned_dynamic_file.c):
    numbers separated by white space, '#' to the end of the line a comment; the number of
    collectives, then per collective its number, the number of communicator sizes, and per
    size (the rule applies from that size up to the next one) the size and the number of
    message sizes, and per message size (from that size up, the first one 0): size, algorithm
    (0: Open MPI's own decision), fan-in/out, segment size."""
    chosen = decisions(table, "openmpi", notes)
    lines = [comment(f"Open MPI coll_tuned dynamic rules written by `autocoll export` from "
                     f"{source}"),
             comment(f"table: {table.get('mpi')} / {table.get('mpi_library')}, registry "
                     f"{table.get('registry_fingerprint')}, created {table.get('created')}"),
             "# use: mpirun --mca coll_tuned_use_dynamic_rules 1 "
             "--mca coll_tuned_dynamic_rules_filename THIS_FILE ...",
             "# format: Open MPI 4.1 classic rules; algorithm 0 is Open MPI's own decision",
             f"{len(chosen)}  # collectives"]
    for coll, segs in chosen.items():
        unit = MESSAGE_SIZE["openmpi"][coll]
        blocks = []
        for lo, hi, entries in segs:
            if unit is None:
                entries = entries[:1]
            msgs = [(0 if unit is None else a, n) for a, _, n in scaled(entries, unit, lo)]
            if blocks and blocks[-1][2] == msgs:
                blocks[-1] = (blocks[-1][0], hi, msgs)
            else:
                blocks.append((lo, hi, msgs))
        lines += [f"{OMPI_COLLECTIVE_NUMBERS[coll]}  # {coll}",
                  f"{len(blocks)}  # communicator sizes"]
        for lo, hi, msgs in blocks:
            lines += [f"{lo}  # {interval_text(lo, hi)} ranks", f"{len(msgs)}  # message sizes"]
            for size, n in msgs:
                lines.append(f"{size} {n.number if n else 0} 0 {n.segsize if n else 0}  "
                             f"# {describe('openmpi', n)}")
            if unit == "times_ranks" and hi is None and len(msgs) > 1:
                lines.append(f"# message sizes above are for {lo} ranks: Open MPI compares "
                             f"block x ranks, so above {lo} ranks they shift")
    return "\n".join(lines) + "\n"


# ---- MPICH ------------------------------------------------------------------------------------

def find_libmpich():
    try:
        out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.strip().startswith("libmpich.so.12 "):
                return Path(line.split("=>")[-1].strip())
    except OSError:
        pass
    return Path("/usr/lib/x86_64-linux-gnu/libmpich.so.12")


def mpich_default_selection(library=None, level="mpir"):
    """MPICH's built-in selection tree of `level` (the JSON compiled into libmpich): "mpir", the
    MPIR level's (algorithms MPIR_<Coll>_intra_<name>), or "ch4", the ch4 device's (its
    compositions, MPIDI_<Coll>_intra_composition_<name>), whose subtrees stand for "MPICH's own
    choice" in an exported file."""
    path = Path(library) if library else find_libmpich()
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ExportError(f"MPICH library {path}: {e} (--mpich-library PATH)") from e
    for m in re.finditer(rb'\{"collective=[^\x00]*', data):
        text = m.group(0)
        wanted = (b'"composition=MPIDI_' in text if level == "ch4"
                  else b'"algorithm=MPIR_' in text and b"MPIDI_" not in text)
        if not wanted:
            continue
        try:
            return json.loads(text)
        except ValueError:
            continue
    what = "ch4 composition" if level == "ch4" else "MPIR collective"
    raise ExportError(f"{path}: no {what} selection JSON in it (--mpich-library PATH)")


def mpich_leaf(coll, native, default):
    if native is None:
        return copy.deepcopy(default)
    return {f"algorithm=MPIR_{coll.capitalize()}_intra_{native.name}": {}}


def mpich_json(table, notes, default_tree):
    """MPICH's selection JSON: the built-in tree with each exported collective's intra-
    communicator branch replaced by communicator-size keys (comm_size<=N, in increasing order,
    the last comm_size=any), message-size keys under them (avg_msg_size<=N or, for allgather,
    total_msg_size<=N; the last =any) and the algorithm, or MPICH's own subtree."""
    tree = copy.deepcopy(default_tree)
    for coll, segs in decisions(table, "mpich", notes).items():
        key = f"collective={coll}"
        if "comm_type=intra" not in tree.get(key, {}):
            raise ExportError(f"MPICH's selection tree has no {key} / comm_type=intra")
        default = tree[key]["comm_type=intra"]
        unit = MESSAGE_SIZE["mpich"][coll]
        branches = []
        for lo, hi, entries in segs:
            if unit is None:
                entries = entries[:1]
            entries = scaled(entries, unit, lo)
            if len(entries) == 1:
                node = mpich_leaf(coll, entries[0][2], default)
            else:
                size_key = MPICH_SIZE_KEYS[unit]
                node = {(f"{size_key}=any" if b_hi is None else f"{size_key}<={b_hi}"):
                        mpich_leaf(coll, n, default) for _, b_hi, n in entries}
                if unit == "times_ranks" and hi is None:
                    notes.append(f"{coll} ranks {lo}+: total_msg_size thresholds are for {lo} "
                                 f"ranks (MPICH compares block x ranks)")
            if branches and branches[-1][2] == node:
                branches[-1] = (branches[-1][0], hi, node)
            else:
                branches.append((lo, hi, node))
        tree[key]["comm_type=intra"] = {
            ("comm_size=any" if hi is None else f"comm_size<={hi}"): node
            for _, hi, node in branches}
    return json.dumps(tree, indent=1) + "\n"


# MPICH 4's ch4 compositions (src/mpid/ch4/src/ch4_coll_impl.h) of the collectives that have a
# node-aware one, chosen on communicators over several nodes with a node of several ranks
# (comm_hierarchy=parent): `hier` runs autocoll's hierarchical instances with one leader a node
# (a phase on each node, one among the node leaders, the way back; MPICH's own algorithm in each
# phase: its shared-memory ones inside a node, its MPIR selection among the leaders), `flat` the
# flat MPIR-level selection (what mpich-json sets). `commutative`: MPICH's `hier` composition
# takes commutative ops only (the others get `flat`).
CH4 = {
    "allreduce": {"hier": "MPIDI_Allreduce_intra_composition_alpha",
                  "flat": "MPIDI_Allreduce_intra_composition_beta", "commutative": True},
    "barrier": {"hier": "MPIDI_Barrier_intra_composition_alpha",
                "flat": "MPIDI_Barrier_intra_composition_beta", "commutative": False},
    "bcast": {"hier": "MPIDI_Bcast_intra_composition_alpha",
              "flat": "MPIDI_Bcast_intra_composition_gamma", "commutative": False},
    "reduce": {"hier": "MPIDI_Reduce_intra_composition_alpha",
               "flat": "MPIDI_Reduce_intra_composition_gamma", "commutative": True},
}
ONE_LEADER_HIER = re.compile(r"hier_(?!k\d+_|segment_)")


def ch4_choice(coll, preference):
    """The ch4 level's choice for a rule's algorithms in order of preference: "own" (native:
    MPICH's own composition), "hier" (a hierarchical instance with one leader a node) or "flat"
    (a flat algorithm: the MPIR level runs it); the multi-leader and pipelined hierarchical
    instances have no composition and are passed over. (choice, note or None)."""
    for k, name in enumerate(preference):
        if name.startswith("hier_") and not ONE_LEADER_HIER.match(name):
            continue
        choice = ("own" if name == NATIVE else "hier" if name.startswith("hier_") else "flat")
        note = None
        if choice == "hier":
            note = (f"{name}: exported as {CH4[coll]['hier']}, MPICH's own algorithms in its "
                    f"phases")
        if k > 0:
            note = (f"{', '.join(preference[:k])}: no MPICH composition; exported the rule's "
                    f"next preference, {name}") + (f" ({note})" if note else "")
        return choice, note
    return "own", (f"{', '.join(preference)}: no MPICH composition; exported MPICH's own "
                   f"choice")


def ch4_leaf(coll, choice, own):
    if choice == "own":
        return copy.deepcopy(own)
    leaf = {f"composition={CH4[coll][choice]}": {}}
    if choice == "hier" and CH4[coll]["commutative"]:
        return {"is_commutative=yes": leaf,
                "is_commutative=no": {f"composition={CH4[coll]['flat']}": {}}}
    return leaf


def ch4_parent_branch(tree, coll):
    """The built-in ch4 tree's node under which coll's communicators over several nodes are
    decided (the comm_hierarchy=parent key's parent: allreduce's sits under comm_size=any)."""
    node = tree.get(f"collective={coll}", {}).get("comm_type=intra", {})
    if "comm_hierarchy=parent" not in node:
        node = node.get("comm_size=any", {})
    if "comm_hierarchy=parent" not in node:
        raise ExportError(f"MPICH's ch4 selection tree has no collective={coll} / comm_type=intra"
                          f" / comm_hierarchy=parent")
    return node


def mpich_ch4_json(table, notes, default_tree):
    """MPICH's ch4-level selection JSON (MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE): the
    built-in tree with each exported collective's comm_hierarchy=parent branch (communicators
    over several nodes, some node holding several of their ranks) replaced by communicator-size
    keys, message-size keys (avg_msg_size<=N) and the composition that runs the rule's choice
    (CH4): a hierarchical instance with one leader a node as MPICH's node-aware composition, a
    flat algorithm as the composition that runs the MPIR level's selection, native as MPICH's
    own branch. Collectives without a node-aware composition are left out."""
    tree = copy.deepcopy(default_tree)
    for coll in dict.fromkeys(r["collective"] for r in table["rules"]):
        if coll not in CH4:
            notes.append(f"{coll}: MPICH has no node-aware composition of it; not in the ch4 "
                         f"file")
            continue
        node = ch4_parent_branch(tree, coll)
        own = node["comm_hierarchy=parent"]
        branches = []
        for lo, hi, covering in segments([r for r in table["rules"] if r["collective"] == coll]):
            if hi is not None and hi < 1:
                continue  # no communicator has 0 ranks
            def choose_rule(r):
                choice, note = ch4_choice(coll, r.get("preference") or [r["algorithm"]])
                text = (f"{coll} ranks {interval_text(*r['ranks'])} bytes "
                        f"{interval_text(*r['bytes'])}: {note}")
                if note and text not in notes:
                    notes.append(text)
                return choice
            entries = byte_entries(covering, "own", choose_rule)
            entries = merge_equal(entries) if coll != "barrier" else entries[:1]
            if len(entries) == 1:
                leaf = ch4_leaf(coll, entries[0][2], own)
            else:
                leaf = {("avg_msg_size=any" if b_hi is None else f"avg_msg_size<={b_hi}"):
                        ch4_leaf(coll, c, own) for _, b_hi, c in entries}
            if branches and branches[-1][2] == leaf:
                branches[-1] = (branches[-1][0], hi, leaf)
            else:
                branches.append((lo, hi, leaf))
        node["comm_hierarchy=parent"] = {
            ("comm_size=any" if hi is None else f"comm_size<={hi}"): leaf
            for _, hi, leaf in branches}
    return json.dumps(tree, indent=1) + "\n"


def comment(text):
    """`text` as comment lines: every line of it after '# ' (a library's version string spans
    several lines, MPICH's does)."""
    return "\n".join("# " + line for line in str(text).splitlines() or [""])


def mpich_cvars(table, source, notes):
    """`export MPIR_CVAR_<COLL>_INTRA_ALGORITHM=<name>` per collective: the native choice of
    most of its cells (each cell's winner mapped at its own rank count, substituted where it
    has no equivalent); with no cells in the table, of most rules. Ties go to MPICH's own
    choice, then to the name first in order."""
    lines = [comment(f"MPICH collective algorithm settings written by `autocoll export` from "
                     f"{source}"),
             comment(f"table: {table.get('mpi')} / {table.get('mpi_library')}, created "
                     f"{table.get('created')}"),
             "# One value per collective: a CVAR cannot depend on the message or communicator",
             "# size, so each is the native choice of most of the collective's cells."]
    for coll in dict.fromkeys(r["collective"] for r in table["rules"]):
        if not MAPPING["mpich"].get(coll):
            notes.append(f"{coll}: no MPICH equivalents known; no setting")
            continue
        votes = {}
        cells = [c for c in table.get("cells", []) if c.get("collective") == coll]
        items = ([(c["winner"], c["ranks"], c["ranks"], [c], f"{c['ranks']} bytes {c['bytes']}")
                  for c in cells] if cells else
                 [(r["algorithm"], *r["ranks"], [],
                   f"{interval_text(*r['ranks'])} bytes {interval_text(*r['bytes'])}")
                  for r in table["rules"] if r["collective"] == coll])
        for algorithm, lo, hi, decided_by, where in items:
            native, note = choose("mpich", coll, algorithm, lo, hi, decided_by)
            if note:
                notes.append(f"{coll} ranks {where}: {note}")
            votes[native] = votes.get(native, 0) + 1
        best = min(votes, key=lambda n: (-votes[n], n is not None, n.name if n else ""))
        what = "cells" if cells else "rules"
        lines.append(f"# {coll}: {describe('mpich', best)} in {votes[best]} of {len(items)} "
                     f"{what}")
        if best is not None:
            lines.append(f"export MPIR_CVAR_{coll.upper()}_INTRA_ALGORITHM={best.name}")
    return "\n".join(lines) + "\n"


# ---- command line -----------------------------------------------------------------------------

USAGE = {
    "ompi-rules": "mpirun --mca coll_tuned_use_dynamic_rules 1 "
                  "--mca coll_tuned_dynamic_rules_filename {out} ...",
    "mpich-json": "MPIR_CVAR_DEVICE_COLLECTIVES=none "
                  "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE={out} mpiexec ...",
    "mpich-ch4-json": "MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE={out} mpiexec ... (with "
                      "the mpich-json file as MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE, without "
                      "MPIR_CVAR_DEVICE_COLLECTIVES=none)",
    "mpich-cvars": ". {out}  (or eval its lines) before mpiexec",
}


def render(table, fmt, source, notes, mpich_library=None):
    """The exported text of `table` in format `fmt`; notes (substitutions) appended."""
    library = FORMATS[fmt]
    if table.get("mpi") and table["mpi"] != library:
        notes.append(f"the table was tuned under {table['mpi']}: its times are that library's")
    if fmt == "ompi-rules":
        return ompi_rules(table, source, notes)
    if fmt == "mpich-json":
        return mpich_json(table, notes, mpich_default_selection(mpich_library))
    if fmt == "mpich-ch4-json":
        return mpich_ch4_json(table, notes, mpich_default_selection(mpich_library, "ch4"))
    return mpich_cvars(table, source, notes)
