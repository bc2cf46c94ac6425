"""The structure of the Python tools (tools/autocoll): matplotlib is set up in plot/plotstyle.py
only (the analysis modules never import it; the drawing modules get pyplot from plotstyle), and
the JSON schema names and versions are defined in formats/schemas.py only. (The layers and
their imports: test_python_layers.py.)"""

import ast

from conftest import ROOT

PACKAGE = ROOT / "tools/autocoll"


def modules():
    return {p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(), str(p))
            for p in sorted(PACKAGE.rglob("*.py"))}


def imported(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_only_plotstyle_imports_matplotlib():
    importers = sorted(name for name, tree in modules().items()
                       if any(m.split(".")[0] == "matplotlib" for m in imported(tree)))
    assert importers == ["plot/plotstyle.py"]


def literal_schemas(tree):
    """String literals given as a "schema" member of a dict or assigned to a name ending in
    SCHEMA or VERSION (numbers too, for the versions)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if (isinstance(key, ast.Constant) and key.value in ("schema", "version")
                        and isinstance(value, ast.Constant)):
                    yield f"{key.value}: {value.value!r}"
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id.endswith(("SCHEMA", "VERSION")):
                    yield f"{target.id} = {node.value.value!r}"


def test_schema_names_are_defined_in_schemas_only():
    elsewhere = {name: list(literal_schemas(tree)) for name, tree in modules().items()
                 if name != "formats/schemas.py"}
    assert {name: found for name, found in elsewhere.items() if found} == {}
    assert list(literal_schemas(modules()["formats/schemas.py"]))
