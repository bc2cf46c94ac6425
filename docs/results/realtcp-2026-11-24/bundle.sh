#!/usr/bin/env bash
# bundle.sh - packs what the emulated cluster needs on a machine without Debian's Open MPI
# (the lent 16-core device machine: no package registry reachable there) into .devroot/ of the
# checkout, which .git/info/exclude must ignore. Run here after scripts/build:
#   docs/results/realtcp-2026-11-24/bundle.sh
# .devroot/root/  Open MPI 4.1.4 and PMIx as Debian installs them, to copy onto / there
#                 (paths no other package uses: device.sh refuses to overwrite existing ones)
# .devroot/lib/   every shared library those programs, iproute2's ip and tc, iperf3 and the
#                 benchmark driver need, except glibc's own and the C++ runtime (the machine's
#                 newer ones serve); only the MPI launcher's and the tools' wrappers use it
# .devroot/bin/   ip, tc, ss, iperf3 (used there only if the machine has none), their libraries
#                 in .devroot/toollib/
# .devroot/build/openmpi/  the benchmark driver, pingpong and autocoll-info of build/openmpi
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
dst=$repo/.devroot
rm -rf "$dst"
mkdir -p "$dst/root" "$dst/lib" "$dst/bin" "$dst/build/openmpi/bench"
tree=(/usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi
      /etc/openmpi /usr/bin/orterun /usr/bin/orted /usr/bin/mpirun.openmpi /usr/bin/ompi_info
      /usr/share/pmix)
for p in "${tree[@]}"; do
    [ -e "$p" ] || continue
    mkdir -p "$dst/root$(dirname "$p")"
    cp -a "$p" "$dst/root$p"
done
# headers and static libraries are for building, not for running
find "$dst/root" -name include -type d -prune -exec rm -rf {} +
find "$dst/root" -name '*.a' -delete
glibc='^(libc|libm|libpthread|libdl|librt|libresolv|libutil|libanl|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so'
cp -aL /usr/bin/ip /usr/sbin/tc /usr/bin/ss /usr/bin/iperf3 "$dst/bin/"
# the tools' own libraries apart: device.sh runs them through the loader with --library-path,
# so that what they start (ip netns exec ... orted) does not inherit a library path
mkdir -p "$dst/toollib"
for f in "$dst/bin/"*; do ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'; done |
    sort -u | while read -r name path; do
        [[ $name =~ $glibc ]] || cp -L "$path" "$dst/toollib/$name"
    done
cp -a "$repo/build/openmpi/bench/autocoll_bench" "$repo/build/openmpi/bench/pingpong" \
    "$dst/build/openmpi/bench/"
# autocoll-info is run by the Python tools, which do not set the library path: a wrapper does
cp -a "$repo/build/openmpi/autocoll-info" "$dst/build/openmpi/autocoll-info.real"
cat > "$dst/build/openmpi/autocoll-info" <<'WRAP'
#!/bin/sh
d=$(cd "$(dirname "$0")/../.." && pwd)
LD_LIBRARY_PATH=$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "$d/build/openmpi/autocoll-info.real" "$@"
WRAP
chmod +x "$dst/build/openmpi/autocoll-info"
# the libraries: ldd of every ELF file above, resolved here
find "$dst/root" "$dst/build" -type f | while read -r f; do
    file -b "$f" | grep -q '^ELF' || continue
    ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
    [[ $name =~ $glibc ]] && continue
    cp -L "$path" "$dst/lib/$name"
done
du -sh "$dst"
