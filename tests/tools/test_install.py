"""cmake --install gives packages that carry their dependencies: the Open MPI and the MPICH
builds side by side in one prefix (each library in lib/autocoll/<mpi>/, autocoll-info-<mpi>),
a pkg-config file per build whose Requires: brings its MPI in, and a CMake package whose
autocoll::autocoll brings MPI in through find_dependency. Consumers build with a plain C
compiler and nothing but pkg-config or find_package(autocoll). The manual pages, generated from
the declarations, install with them."""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from autocoll.analysis import report
from conftest import MPIS, build_dir, registry

CONSUMER = ('#include <autocoll.h>\n#include <mpi.h>\n'
            'int main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize();'
            ' return AUTOCOLL_VERSION_MAJOR; }\n')
MPI_LIBRARY = {"openmpi": "libmpi.so", "mpich": "libmpich.so"}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """Both builds installed into one prefix, Open MPI's first."""
    prefix = tmp_path_factory.mktemp("install") / "prefix"
    for mpi in MPIS:
        sh(["cmake", "--install", str(build_dir(mpi)), "--prefix", str(prefix)])
    (prefix.parent / "consumer.c").write_text(CONSUMER)
    return prefix


def libdir(prefix):
    return next(p for p in [prefix / "lib", prefix / "lib/x86_64-linux-gnu"]
                if (p / "pkgconfig").is_dir())


def needed(program):
    return sh(["readelf", "-d", str(program)]).stdout


def test_builds_install_side_by_side(prefix):
    lib = libdir(prefix)
    for mpi in MPIS:
        assert (lib / "autocoll" / mpi / "libautocoll.so").exists()
        info = sh([str(prefix / "bin" / f"autocoll-info-{mpi}"), "--parsable"]).stdout
        assert f"autocoll:mpi:{mpi}\n" in info
        assert f"{MPI_LIBRARY[mpi]}" in needed(lib / "autocoll" / mpi / "libautocoll.so")
    assert os.readlink(prefix / "bin/autocoll-info") == "autocoll-info-openmpi"
    assert '"schema": "autocoll-info"' in sh([str(prefix / "bin/autocoll-info"), "--json"]).stdout
    assert (prefix / "include/autocoll.h").exists()


@pytest.mark.parametrize("mpi", MPIS)
def test_pkgconfig_requires_the_mpi(prefix, mpi, tmp_path):
    lib = libdir(prefix)
    env = dict(os.environ, PKG_CONFIG_PATH=str(lib / "pkgconfig"))
    requires = sh(["pkg-config", "--print-requires", f"autocoll-{mpi}"], env=env).stdout.split()
    assert requires == [{"openmpi": "ompi-c", "mpich": "mpich"}[mpi]]
    flags = sh(["pkg-config", "--cflags", "--libs", f"autocoll-{mpi}"], env=env).stdout.split()
    assert flags.index("-lautocoll") < flags.index({"openmpi": "-lmpi", "mpich": "-lmpich"}[mpi])
    ldirs = [f[2:] for f in flags if f.startswith("-L")]
    assert any(os.path.samefile(d, lib / "autocoll" / mpi) for d in ldirs), flags
    sh(["cc", str(prefix.parent / "consumer.c"), *flags, "-o", str(tmp_path / "a")])
    assert "libautocoll.so" in needed(tmp_path / "a")
    resolved = sh(["ldd", str(tmp_path / "a")]).stdout
    assert f"autocoll/{mpi}/libautocoll.so" in resolved and MPI_LIBRARY[mpi] in resolved, \
        resolved


@pytest.mark.parametrize("mpi", MPIS)
def test_cmake_package_brings_mpi_in(prefix, mpi, tmp_path):
    """A plain C compiler, find_package(autocoll) and the MPI of the project (FindMPI's hint):
    autocoll::autocoll is that MPI's build, and brings MPI's headers and library."""
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(consumer C)\n"
        "find_package(autocoll 0.1 REQUIRED)\n"
        f"add_executable(consumer {prefix.parent / 'consumer.c'})\n"
        "target_link_libraries(consumer PRIVATE autocoll::autocoll)\n"
        'message(STATUS "autocoll for ${AUTOCOLL_MPI}")\n')
    configured = sh(["cmake", "-S", str(proj), "-B", str(proj / "b"),
                     f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_C_COMPILER=cc",
                     f"-DMPI_C_COMPILER=mpicc.{mpi}"])
    assert f"autocoll for {mpi}" in configured.stdout
    sh(["cmake", "--build", str(proj / "b")])
    assert "libautocoll.so" in needed(proj / "b/consumer")
    resolved = sh(["ldd", str(proj / "b/consumer")]).stdout
    assert f"autocoll/{mpi}/libautocoll.so" in resolved and MPI_LIBRARY[mpi] in resolved, \
        resolved


@pytest.mark.parametrize("component, mpi", [("openmpi", "openmpi"), ("mpich", "mpich"),
                                             ("mpich", "openmpi")])
def test_cmake_component_names_the_mpi_expected(prefix, tmp_path, component, mpi):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(consumer C)\n"
        f"find_package(autocoll REQUIRED COMPONENTS {component})\n")
    run = subprocess.run(["cmake", "-S", str(proj), "-B", str(proj / "b"),
                          f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_C_COMPILER=cc",
                          f"-DMPI_C_COMPILER=mpicc.{mpi}"], capture_output=True, text=True)
    if component == mpi:
        assert run.returncode == 0, run.stderr
    else:
        assert run.returncode != 0
        assert (f"the component {component} was asked for, but the MPI found is {mpi}"
                in " ".join(run.stderr.split())), run.stderr


def man(path):
    """The page's troff source with its escapes undone (no man or groff needed)."""
    return path.read_text().replace("\\-", "-").replace("\\&", "").replace("\\e", "\\")


def test_manual_pages_come_from_the_declarations(prefix):
    """autocoll(7): every setting with its type, values and default, every column of the
    report with its meaning; autocoll-info(1): every option of --help; autocoll(1): every
    command. Both builds install the same pages."""
    pages = prefix / "share/man"
    for mpi in MPIS:
        for page in ["man7/autocoll.7", "man1/autocoll-info.1", "man1/autocoll.1"]:
            built = build_dir(mpi) / "man" / page.split("/")[1]
            assert built.read_text() == (pages / page).read_text(), (mpi, page)
    seven = man(pages / "man7/autocoll.7")
    assert seven.startswith('.TH AUTOCOLL 7 "" "autocoll 0.1.0" "autocoll"\n.SH NAME\n')
    for s in registry("openmpi")["settings"]:
        assert (f".TP\n.B {s['name']}\n{s['type']}: {s['values']}; default "
                f"{s['default'] or '(none)'}.\n{s['summary']}.\n") in seven, s["name"]
    for title, _, _, meaning in report.CONTEXT_COLUMNS:  # the report's columns, explained
        assert f".TP\n.B {title}\n{meaning}.\n" in seven, title
    one = man(pages / "man1/autocoll-info.1")
    options = re.findall(r"^  (--[a-z]+(?: [A-Z]+)?) ", sh([str(prefix / "bin/autocoll-info"),
                                                            "--help"]).stdout, re.M)
    assert len(options) == 11 and all(f".TP\n.B {o}\n" in one for o in options), options
    commands = man(pages / "man1/autocoll.1")
    for command in ["info", "report", "bench", "tune", "plot", "export", "programs", "cluster",
                    "simgrid"]:
        assert f"\n.SS autocoll {command}\n" in commands, command


@pytest.mark.parametrize("mpi", MPIS)
def test_release_build_as_a_user_types_it(mpi, tmp_path):
    """`cmake -DCMAKE_BUILD_TYPE=Release` (-O3) builds; a user's build warns but never stops on
    a warning (GCC 12 at -O3 once stopped it in src/adcl/vmap.c), while the project's own builds
    (scripts/build: AUTOCOLL_WERROR=ON) do."""
    root = build_dir("openmpi").parents[1]
    build = tmp_path / "release"
    family = {"openmpi": "Open MPI", "mpich": "MPICH"}[mpi]
    # the MPI named by its wrapper alone (MPI_C_COMPILER), as a user with a site MPI does
    configured = sh(["cmake", "-S", str(root), "-B", str(build), "-G", "Ninja",
                     f"-DMPI_C_COMPILER=mpicc.{mpi}", "-DCMAKE_BUILD_TYPE=Release",
                     "-DAUTOCOLL_TESTS=OFF", "-DAUTOCOLL_WERROR=ON"]).stdout
    assert f"autocoll: built for {family} ({mpi}) with /usr/bin/mpicc.{mpi}" in configured
    sh(["cmake", "--build", str(build), "--target", "autocoll", "autocoll-info"], timeout=900)
    assert (build / "libautocoll.so").exists()
    assert sh([str(build / "autocoll-info")]).stdout.startswith(
        f"autocoll 0.1.0 built for {mpi} (registry ")
    sh(["cmake", "-S", str(root), "-B", str(build), "-DAUTOCOLL_WERROR=OFF"])
    flags = sh(["cmake", "--build", str(build), "--target", "autocoll", "--", "-t",
                "commands"]).stdout
    assert "-Wall" in flags and "-Werror" not in flags


@pytest.mark.parametrize("mpi", MPIS)
def test_the_mpi_on_path_is_found(mpi, tmp_path):
    """No AUTOCOLL_MPI, no wrapper named: the `mpicc` first on PATH is the MPI (as a `module
    load` would put it), read from its mpi.h and named in the build (Debug)."""
    root = build_dir(mpi).parents[1]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrappers = {"mpicc": f"mpicc.{mpi}", "mpicxx": f"mpicxx.{mpi}", "mpif90": f"mpif90.{mpi}"}
    if mpi == "openmpi":  # Open MPI's wrapper reads the data file of the name it is called by
        wrappers = {"mpicc": "mpicc.openmpi"}
    for name, target in wrappers.items():
        (bin_dir / name).symlink_to(f"/usr/bin/{target}")
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    env.pop("MPI_HOME", None)
    build = tmp_path / "build"
    configured = sh(["cmake", "-S", str(root), "-B", str(build), "-G", "Ninja",
                     "-DCMAKE_BUILD_TYPE=Debug", "-DAUTOCOLL_TESTS=OFF"], env=env).stdout
    family = {"openmpi": "Open MPI", "mpich": "MPICH"}[mpi]
    assert f"autocoll: built for {family} ({mpi}) with {bin_dir}/mpicc" in configured, configured
    sh(["cmake", "--build", str(build), "--target", "autocoll-info"], env=env, timeout=900)
    info = sh([str(build / "autocoll-info"), "--json"]).stdout
    assert f'"mpi": "{mpi}"' in info and f'"mpi_family": "{family}"' in info


def test_a_named_mpi_that_is_not_the_wrappers_is_refused(tmp_path):
    root = build_dir("openmpi").parents[1]
    run = subprocess.run(["cmake", "-S", str(root), "-B", str(tmp_path / "b"),
                          "-DAUTOCOLL_MPI=mpich", "-DMPI_C_COMPILER=mpicc.openmpi",
                          "-DAUTOCOLL_TESTS=OFF"], capture_output=True, text=True)
    assert run.returncode != 0
    said = " ".join(run.stderr.split())  # CMake folds its messages
    assert "AUTOCOLL_MPI=mpich, but" in said and "is Open MPI's" in said, run.stderr


@pytest.mark.parametrize("program_mpi,library_mpi", [("openmpi", "mpich"), ("mpich", "openmpi")])
def test_a_build_refuses_the_other_library(program_mpi, library_mpi):
    """A build preloaded into a program of the other MPI stops before MPI_Init with a message
    that says what to do (it crashed with a segmentation fault before)."""
    program = str(build_dir(program_mpi) / "demo")
    library = str(build_dir(library_mpi) / "libautocoll.so")
    if program_mpi == "openmpi":
        cmd = ["mpirun.openmpi", "--allow-run-as-root", "-np", "1", "-x",
               f"LD_PRELOAD={library}", program]
    else:
        cmd = ["mpiexec.mpich", "-np", "1", "env", f"LD_PRELOAD={library}", program]
    run = subprocess.run(["timeout", "120"] + cmd, capture_output=True, text=True)
    built = "Open MPI" if library_mpi == "openmpi" else "the MPICH family"
    runs = "Open MPI v" if program_mpi == "openmpi" else "MPICH Version"
    out = run.stdout + run.stderr
    assert f"autocoll: error: this libautocoll was built for {built}" in out, out
    assert f'but the program runs "{runs}' in out and "Stopping before MPI_Init." in out, out
    assert "demo: results" not in out and "Segmentation fault" not in out


def test_the_spack_recipe_passes_options_the_build_has():
    """packaging/spack is untested (no Spack here); what can be checked is that every CMake
    option its cmake_args define is one CMakeLists.txt declares."""
    import ast
    root = build_dir("openmpi").parents[1]
    tree = ast.parse((root / "packaging/spack/packages/autocoll/package.py").read_text())
    defined = {node.args[0].value for node in ast.walk(tree)
               if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
                   "define", "define_from_variant") and isinstance(node.args[0], ast.Constant)}
    assert defined == {"MPI_C_COMPILER", "AUTOCOLL_MPI", "AUTOCOLL_WITH_LIBDW", "AUTOCOLL_TESTS"}
    cmake = (root / "CMakeLists.txt").read_text()
    for name in defined:
        assert re.search(rf"(option|set)\({name} ", cmake), name


def test_a_user_without_root_builds_installs_and_links():
    """The README's first path as a user who is not root (nobody, where the tests run as
    root): configure with the environment's mpicc, build, install into a prefix of their own,
    build a program against it with pkg-config, and run it with the layer."""
    root = build_dir("openmpi").parents[1]
    home = Path(tempfile.mkdtemp(prefix="autocoll-user-"))  # pytest's folders are root's alone
    home.chmod(0o777)
    try:
        user_install(root, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def user_install(root, home):
    as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AUTOCOLL", "OMPI_"))}
    env["HOME"] = str(home)
    build, prefix = home / "build", home / "local"
    sh(as_user + ["cmake", "-S", str(root), "-B", str(build), "-G", "Ninja",
                  "-DAUTOCOLL_TESTS=OFF"], env=env, cwd=home)
    sh(as_user + ["cmake", "--build", str(build)], env=env, cwd=home, timeout=900)
    sh(as_user + ["cmake", "--install", str(build), "--prefix", str(prefix)], env=env, cwd=home)
    lib = libdir(prefix)
    (home / "app.c").write_text(CONSUMER.replace("return AUTOCOLL_VERSION_MAJOR;", "return 0;"))
    pc = dict(env, PKG_CONFIG_PATH=str(lib / "pkgconfig"))
    flags = sh(["pkg-config", "--cflags", "--libs", "autocoll-openmpi"], env=pc).stdout.split()
    sh(as_user + ["cc", str(home / "app.c"), *flags, f"-Wl,-rpath,{lib}/autocoll/openmpi",
                  "-o", str(home / "app")], env=env, cwd=home)
    run = subprocess.run(as_user + ["mpirun.openmpi", "-n", "1", str(home / "app")],
                         env=dict(env, AUTOCOLL_REPORT="stderr"), cwd=home, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "autocoll report: rank 0 of 1" in run.stderr, run.stderr
    assert all(p.stat().st_uid != 0 for p in prefix.rglob("*")), "installed as root"
