#!/bin/sh
# Makes .simroot/ (git ignores it locally: .git/info/exclude): what the lent machine (Ubuntu,
# no SimGrid) needs to run this checkout's simulations. SimGrid 3.32's smpimain and smpirun
# (its paths pointed at $SIMROOT), the libraries they, build/simgrid's driver and autocoll-info
# load that an Ubuntu base lacks (libsimgrid, ns-3, boost, gsl, libdw, ...), and those two
# programs and libautocoll.so. device.sh uses it.
set -eu
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=$repo/.simroot
rm -rf "$root"
mkdir -p "$root/lib/simgrid" "$root/bin" "$root/build"
cp /usr/lib/x86_64-linux-gnu/simgrid/smpimain "$root/lib/simgrid/"
cp "$repo/build/simgrid/bench/autocoll_bench" "$repo/build/simgrid/autocoll-info" \
  "$repo/build/simgrid/libautocoll.so" "$root/build/"
for program in "$root/lib/simgrid/smpimain" "$root"/build/*; do ldd "$program"; done |
  awk '/=>/ {print $1, $3}' | sort -u |
  grep -Ev '^(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|libz|liblzma|libbz2|ld-linux)[.]so' |
  while read -r name path; do cp -L "$path" "$root/lib/$name"; done
sed -e 's|^export LD_LIBRARY_PATH="/usr/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu|export LD_LIBRARY_PATH="$SIMROOT/lib|' \
    -e 's|"/usr/lib/x86_64-linux-gnu/simgrid/smpimain"|"$SIMROOT/lib/simgrid/smpimain"|' \
    /usr/bin/smpirun > "$root/bin/smpirun"
chmod +x "$root/bin/smpirun"
grep -q 'SIMROOT/lib/simgrid/smpimain' "$root/bin/smpirun"
du -sh "$root"
