"""The pages a reader follows (README.md and docs/*.md; not the result folders under docs/results/,
which keep the paths of the day they were written) point to files that exist: every relative
markdown link `[text](target)` resolves from the page's own folder, and every file of the
repository quoted in backticks (`docs/star.md`, `src/select/race.c`, `docs/results/x/`: the pages
name files from the repository root) exists. Left out: paths with a placeholder or a pattern
(`<coll>`, `*`, `[ch]`), names without a suffix (build outputs such as `bench/pingpong`), and
the sources of the MPI libraries and SimGrid that docs/baselines.md and docs/table.md quote."""

import re

from conftest import ROOT

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
QUOTED = re.compile(r"`([^`\s]+)`")
TOP = ("docs/", "src/", "tests/", "tools/", "scripts/", "bench/", "platforms/", "examples/",
       "include/", "cmake/", "tables/")
FOREIGN = ("src/mpi/", "src/mpid/", "src/smpi/")  # MPICH's and SimGrid's source trees
PATTERN = set("<>*[]{}$%")


def pages(root=ROOT):
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def broken_links(page, root=ROOT):
    """The relative markdown links of `page` that name no file or folder."""
    out = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (page.parent / target.split("#", 1)[0]).exists():
            out.append(f"{page.relative_to(root)}: [..]({target})")
    return out


def quoted_paths(text):
    """The repository files and folders quoted in backticks in `text`."""
    for token in QUOTED.findall(text):
        path = token.rstrip(".,;:").split(":", 1)[0]  # `file:line`
        if not path.startswith(TOP) or path.startswith(FOREIGN) or PATTERN & set(path):
            continue
        if path.endswith("/") or "." in path.rsplit("/", 1)[-1]:
            yield token, path


def broken_quoted_paths(page, root=ROOT):
    """The repository paths quoted in backticks in `page` that name no file or folder."""
    return [f"{page.relative_to(root)}: `{token}`" for token, path in
            quoted_paths(page.read_text()) if not (root / path).exists()]


def test_markdown_links_resolve():
    assert [b for p in pages() for b in broken_links(p)] == []


def test_quoted_repository_paths_exist():
    assert [b for p in pages() for b in broken_quoted_paths(p)] == []


def test_the_checks_find_a_broken_path(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("[up](../README.md) [b](../docs/guide.md#use)\n")
    readme = tmp_path / "README.md"
    readme.write_text("[a](guide.md) [b](docs/guide.md) [c](https://example.org) [d](#top)\n"
                      "`docs/no-such.md` `src/coll/<coll>/x.c` `docs/guide.md` `bench/pingpong`\n"
                      "`docs/guide.md:12` `docs/none/` `src/mpi/coll/src/csel.c`\n")
    found = [b for p in pages(tmp_path) for b in broken_links(p, tmp_path)]
    assert found == ["README.md: [..](guide.md)"]
    found = [b for p in pages(tmp_path) for b in broken_quoted_paths(p, tmp_path)]
    assert found == ["README.md: `docs/no-such.md`", "README.md: `docs/none/`"]
