"""cmake --install gives a usable package: library, autocoll-info, header, pkg-config file and
CMake package config, each used by a consumer build."""

import os
import subprocess

from conftest import ROOT, build_dir


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def test_install_pkgconfig_and_cmake_package(tmp_path):
    prefix = tmp_path / "prefix"
    sh(["cmake", "--install", str(build_dir("openmpi")), "--prefix", str(prefix)])
    libdir = next(p for p in [prefix / "lib", prefix / "lib/x86_64-linux-gnu"]
                  if (p / "libautocoll.so").exists())
    assert (prefix / "include/autocoll.h").exists()
    info = sh([str(prefix / "bin/autocoll-info"), "--json"]).stdout
    assert '"schema": "autocoll-info"' in info

    env = dict(os.environ, PKG_CONFIG_PATH=str(libdir / "pkgconfig"))
    flags = sh(["pkg-config", "--cflags", "--libs", "autocoll"], env=env).stdout.split()
    ldirs = [f[2:] for f in flags if f.startswith("-L")]
    assert "-lautocoll" in flags and any(os.path.samefile(d, libdir) for d in ldirs), flags

    src = tmp_path / "consumer.c"
    src.write_text('#include <autocoll.h>\n#include <mpi.h>\n'
                   'int main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize();'
                   ' return AUTOCOLL_VERSION_MAJOR; }\n')
    sh(["mpicc.openmpi", str(src), *flags, f"-Wl,-rpath,{libdir}", "-o", str(tmp_path / "a")])
    needed = sh(["readelf", "-d", str(tmp_path / "a")]).stdout
    assert "libautocoll.so" in needed

    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(consumer C)\n"
        "find_package(autocoll 0.1 REQUIRED)\n"
        "add_executable(consumer ${CMAKE_CURRENT_SOURCE_DIR}/../consumer.c)\n"
        "target_link_libraries(consumer PRIVATE autocoll::autocoll)\n")
    sh(["cmake", "-S", str(proj), "-B", str(proj / "b"), f"-DCMAKE_PREFIX_PATH={prefix}",
        "-DCMAKE_C_COMPILER=mpicc.openmpi"])
    sh(["cmake", "--build", str(proj / "b")])
    assert (proj / "b/consumer").exists()
