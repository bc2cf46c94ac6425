"""The layers of the Python tools (tools/autocoll/__init__.py says them): every module parsed
with `ast`, the package's import graph built, and three rules checked:

  (a) a module imports only from its own layer or below (formats < run < analysis < plot <
      commands < the package's top: __init__, cli, manpages, __main__);
  (b) no circular import, between layers or inside one;
  (c) no import inside a function of an autocoll module (nor of anything else but the
      optional third-party packages the tools defer on purpose, DEFERRED_OK).

The checks run on the package and, to show they can fail, on small packages planted with each
fault. `python tests/tools/test_python_layers.py [PACKAGE_DIR]` prints the graph's circles and
deferred imports (e.g. of an older flat checkout of tools/autocoll)."""

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tools" / "autocoll"
LAYERS = ("formats", "run", "analysis", "plot", "commands")  # bottom first; then the top
TOP = len(LAYERS)
# Imported inside functions on purpose: matplotlib and scikit-learn are slow to import and
# needed by a few commands only; tqdm is optional (the man pages are built with a Python that
# may lack it, tools/autocoll/manpages.py).
DEFERRED_OK = ("matplotlib", "sklearn", "tqdm")


def modules(root):
    """{dotted module name: path} of every module of the package at `root` (named after the
    folder)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = [root.name] + list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def layer(name):
    """The layer (an index into LAYERS, TOP for the top) of dotted module `name`."""
    parts = name.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else TOP


def resolve(name, is_package, node):
    """The absolute names a `from ... import` or `import` node brings in."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = name.split(".")
        base = base[:len(base) - node.level + (1 if is_package else 0)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module
    return [prefix] + [f"{prefix}.{a.name}" for a in node.names]


def in_function(tree):
    """{id(node): True} of the import nodes inside a function body."""
    inside = set()
    for f in ast.walk(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for n in ast.walk(f):
                if isinstance(n, (ast.Import, ast.ImportFrom)):
                    inside.add(id(n))
    return inside


def graph(root):
    """(edges {module: {modules it imports}}, deferred [(module, line, imported)]) of the
    package at `root`: imports of the package's own modules (a `from X import Y` of a module Y
    counts as importing X.Y; of a name, as importing X)."""
    mods = modules(root)
    edges, deferred = {m: set() for m in mods}, []
    for name, path in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        inside = in_function(tree)
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            names = resolve(name, path.name == "__init__.py", node)
            own = [n for n in names if n in mods]
            if isinstance(node, ast.ImportFrom):
                own = [n for n in own if n != names[0]] or own  # X.Y modules, else X
            if id(node) in inside:
                top = names[0].split(".")[0]
                if own or top == root.name or top not in DEFERRED_OK:
                    deferred.append((name, node.lineno, names[0]))
            edges[name].update(n for n in own if n != name)
    return edges, deferred


def upward(edges):
    """[(module, imported)] of every import from a higher layer."""
    return sorted((m, t) for m, ts in edges.items() for t in ts if layer(t) > layer(m))


def circles(edges):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        # iterative: no recursion limit to meet
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        component.append(w)
                        if w == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def test_imports_only_downward():
    edges, _ = graph(PACKAGE)
    assert upward(edges) == []


def test_no_circular_import():
    edges, _ = graph(PACKAGE)
    assert circles(edges) == []


def test_no_deferred_import():
    _, deferred = graph(PACKAGE)
    assert deferred == []


def test_every_module_in_a_layer():
    """Every module is in one of LAYERS, or one of the few of the top."""
    top = {m for m in modules(PACKAGE) if layer(m) == TOP}
    assert top == {"autocoll", "autocoll.__main__", "autocoll.cli", "autocoll.manpages"}


def plant(tmp_path, files):
    root = tmp_path / "autocoll"
    for rel, text in {"__init__.py": "", "formats/__init__.py": "", "run/__init__.py": "",
                      "formats/low.py": "X = 1\n", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return graph(root)


def test_checks_catch_planted_faults(tmp_path):
    """Each check fails on a package planted with its fault, and passes the same package
    without it."""
    edges, deferred = plant(tmp_path / "clean", {
        "run/job.py": "from ..formats import low\nfrom ..formats.low import X\n",
        "run/lazy.py": "def f():\n    import matplotlib.pyplot as plt\n    return plt\n"})
    assert upward(edges) == [] and circles(edges) == [] and deferred == []
    assert edges["autocoll.run.job"] == {"autocoll.formats.low"}

    edges, _ = plant(tmp_path / "up", {"formats/bad.py": "from ..run import job\n",
                                       "run/job.py": ""})
    assert upward(edges) == [("autocoll.formats.bad", "autocoll.run.job")]

    edges, _ = plant(tmp_path / "circle", {"run/a.py": "from . import b\n",
                                           "run/b.py": "from .c import f\n",
                                           "run/c.py": "from .a import g\n"})
    assert circles(edges) == [["autocoll.run.a", "autocoll.run.b", "autocoll.run.c"]]

    _, deferred = plant(tmp_path / "deferred", {
        "run/job.py": "def f():\n    from ..formats import low\n    return low\n",
        "run/other.py": "def g():\n    import json\n    return json\n"})
    assert deferred == [("autocoll.run.job", 2, "autocoll.formats"), ("autocoll.run.other", 2,
                                                                      "json")]


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else PACKAGE
    edges, deferred = graph(root)
    found = circles(edges)
    print(f"{root}: {len(edges)} modules, {sum(map(len, edges.values()))} imports between them")
    print(f"circles: {len(found)}")
    for c in found:
        print(f"  {len(c)}: {' '.join(m.split('.', 1)[-1] for m in c)}")
    print(f"deferred imports: {len(deferred)}")
    for m, line, what in deferred:
        print(f"  {m}:{line} {what}")
    up = upward(edges)
    print(f"upward imports: {len(up)}")
    for m, t in up:
        print(f"  {m} -> {t}")
