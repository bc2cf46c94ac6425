"""Where things are: the repository root (the checkout the package runs from, or was
installed from editable), the builds of autocoll and the platforms of platforms/ (the
checkout's, else the copy installed with the package: `pip install ./tools` outside the
checkout). The one place that looks them up:

  build_folder     --build, else $AUTOCOLL_BUILD/<mpi>, else the checkout's build/<mpi>
                   (bench, tune, programs)
  environment_build  the same (simgrid replay)
  built_file       $AUTOCOLL_BUILD/<mpi>/NAME, else the checkout's build/<mpi>/NAME
  find_info        built_file's autocoll-info, else autocoll-info-<mpi> or autocoll-info on
                   PATH
"""

import os
import shutil
from pathlib import Path

from .platforms import SimgridError

REPO = Path(__file__).resolve().parents[3]
# the checkout's platforms/, else the package's copy (tools/autocoll/platforms links to it in the
# checkout, and `pip install` copies the files: pyproject.toml's package data)
PLATFORMS = next((p for p in (REPO / "platforms", Path(__file__).resolve().parents[1] / "platforms")
                  if p.is_dir()), REPO / "platforms")


def checkout_build(mpi):
    """The checkout's build folder of `mpi` (build/<mpi>, scripts/build)."""
    return REPO / "build" / mpi


def build_folder(mpi, build=None):
    """`build` (a --build option) when given, else $AUTOCOLL_BUILD/<mpi>, else the checkout's
    build/<mpi>."""
    return environment_build(mpi, build)


def environment_build(mpi, build=None):
    """`build` when given, else $AUTOCOLL_BUILD/<mpi>, else the checkout's build/<mpi>."""
    return Path(build) if build else Path(os.environ.get("AUTOCOLL_BUILD", REPO / "build")) / mpi


def build_roots():
    """The folders holding builds, first first: $AUTOCOLL_BUILD (when set), the checkout's
    build/."""
    roots = [Path(os.environ["AUTOCOLL_BUILD"])] if os.environ.get("AUTOCOLL_BUILD") else []
    return roots + [REPO / "build"]


def built_file(mpi, name, found=Path.exists):
    """The first `root`/<mpi>/`name` of build_roots() that is `found` (default: exists); None
    when none is."""
    for root in build_roots():
        candidate = root / mpi / name
        if found(candidate):
            return candidate
    return None


def find_info(mpi="openmpi"):
    """Path of autocoll-info for `mpi`: $AUTOCOLL_BUILD/<mpi>, else the source tree's build/
    (the package installed from a checkout, editable), else an installed one on PATH
    (autocoll-info-<mpi>, else autocoll-info)."""
    candidate = built_file(mpi, "autocoll-info")
    if candidate:
        return candidate
    installed = shutil.which(f"autocoll-info-{mpi}") or shutil.which("autocoll-info")
    if installed:
        return Path(installed)
    raise FileNotFoundError(f"autocoll-info for {mpi} not found under "
                            f"{', '.join(map(str, build_roots()))} nor on PATH (run scripts/build, "
                            f"or set AUTOCOLL_BUILD)")


def platform_files():
    """The XML files of platforms/, by name."""
    return sorted(PLATFORMS.glob("*.xml"))


def platform_path(name):
    """The XML file of platform `name` (a file of platforms/, with or without .xml) or a path."""
    for candidate in (Path(name), PLATFORMS / name, PLATFORMS / f"{name}.xml"):
        if candidate.is_file():
            return candidate.resolve()
    known = ", ".join(sorted(p.stem for p in PLATFORMS.glob("*.xml"))) or "none"
    raise SimgridError(f"no platform {name!r} (a file, or one of platforms/: {known})")
