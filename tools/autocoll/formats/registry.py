"""The algorithm registry and settings, as printed by `autocoll-info --json`: reading it
(run/info.py runs the program)."""

import json

from .schemas import INFO_SCHEMA, INFO_VERSION

# The cost features of an algorithm's formula (`autocoll-info --json --size --bytes --nodes`,
# src/coll/cost.c), in the order the cost model (analysis/generalise.py) takes them.
COST_KEYS = ("alpha_intra", "beta_intra", "alpha_inter", "beta_inter", "gamma", "overhead")


def parse(text):
    """The registry (autocoll-info --json's output) as a dict; raises ValueError on an unknown
    schema or version."""
    data = json.loads(text)
    if data.get("schema") != INFO_SCHEMA or data.get("version") != INFO_VERSION:
        raise ValueError(f"unexpected registry schema {data.get('schema')!r} "
                         f"version {data.get('version')!r}")
    return data


def algorithms_by_collective(data):
    """{collective: [algorithm names]} in registry order."""
    out = {}
    for a in data["algorithms"]:
        out.setdefault(a["collective"], []).append(a["name"])
    return out


def cost_features(text):
    """{collective: {algorithm: [its cost features, COST_KEYS order] or None}} of autocoll-info
    --json --size --bytes --nodes's output (None: no formula)."""
    data = json.loads(text)
    out = {}
    for a in data["algorithms"]:
        cost = a.get("cost")
        out.setdefault(a["collective"], {})[a["name"]] = (
            [float(cost[k]) for k in COST_KEYS] if isinstance(cost, dict) else None)
    return out
