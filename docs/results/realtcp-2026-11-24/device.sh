#!/usr/bin/env bash
# device.sh - the real-TCP check, run on the lent 16-core machine from the checkout's root with
# .devroot/ (bundle.sh) carried: uses the machine's Open MPI (or installs the bundled one where
# it has none), brings up the emulated clusters of docs/cluster.md and runs
# bench/cluster/emulated-matrix there, then tars everything into $OUT/realtcp.tar.gz. README.md
# of this folder says what came back. SKIP_PINGPONG=1 skips the ping-pong, DIAG=1 stops after
# the launcher's diagnostics, MATRIX_TIMEOUT (s, default 420) bounds the matrix.
#   docs/results/realtcp-2026-11-24/device.sh [PART...]   (default: 100m-16 100m-8)
set -uo pipefail
repo=$(pwd)
dev=$repo/.devroot
res=/tmp/realtcp
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(100m-16 100m-8)
rm -rf "$res" && mkdir -p "$res"   # a warm machine keeps /tmp: every run starts empty
trap 'tar -C /tmp -czf "${OUT:-/tmp}/realtcp.tar.gz" realtcp' EXIT
exec > >(tee -a "$res/device.log") 2>&1

echo "== the machine"
uname -r; grep PRETTY /etc/os-release; nproc; free -g | head -2; python3 --version
for t in ip tc iperf3 unshare hostname file; do printf '%s: %s\n' "$t" "$(command -v $t || echo -)"; done
python3 -c 'import sklearn, matplotlib, tqdm; print("python packages: ok")'
for m in veth bridge sch_tbf sch_netem; do modprobe $m 2>/dev/null; done
lsmod 2>/dev/null | grep -E 'veth|bridge|tbf|netem' || echo "(no modules listed: built in or absent)"

mkdir -p "$dev/wrap" "$dev/extra"
if [ -e /usr/bin/orterun ] || [ -e /usr/lib/x86_64-linux-gnu/openmpi ]; then
    # the machine's own Open MPI (Ubuntu 24.04: 4.1.6, the ABI of Debian's 4.1.4): used as it is;
    # the programs built here get only the libraries the machine lacks
    echo "== the machine's own Open MPI"
    for f in "$dev/build/openmpi/bench/"* "$dev/build/openmpi/autocoll-info.real"; do
        ldd "$f" | awk '$3 == "not" {print $1}'
    done | sort -u | while read -r l; do ln -sf "$dev/lib/$l" "$dev/extra/$l"; done
    echo "taken from the bundle: $(ls "$dev/extra" | tr '\n' ' ')"
    # the image sets OMPI_MCA_plm=isolated (every rank on the local host): unset, so that the
    # ranks start on their nodes through the agent
    printf '#!/bin/sh\nunset OMPI_MCA_plm\nexport LD_LIBRARY_PATH=%s/extra OMPI_MCA_pml=ob1\nexec %s "$@"\n' "$dev" \
        "$(command -v mpirun.openmpi || command -v mpirun)" > "$dev/wrap/mpirun.openmpi"
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s/extra exec %s/build/openmpi/autocoll-info.real "$@"\n' \
        "$dev" "$dev" > "$dev/build/openmpi/autocoll-info"
    info=ompi_info
else
    echo "== Open MPI 4.1.4 and PMIx from Debian 12 (bundle.sh)"
    cp -a "$dev/root/." /
    printf '#!/bin/sh\nexport LD_LIBRARY_PATH=%s/lib\nexec /usr/bin/orterun "$@"\n' "$dev" \
        > "$dev/wrap/mpirun.openmpi"
    info="env LD_LIBRARY_PATH=$dev/lib ompi_info"
fi
for t in ip tc ss iperf3; do
    command -v $t >/dev/null && continue
    printf '#!/bin/sh\nexec /lib64/ld-linux-x86-64.so.2 --library-path %s/toollib %s/bin/%s "$@"\n' \
        "$dev" "$dev" $t > "$dev/wrap/$t"
done
printf '#!/bin/sh\nPYTHONPATH=%s/tools exec python3 -m autocoll "$@"\n' "$repo" > "$dev/wrap/autocoll"
chmod +x "$dev/wrap/"*
export PATH=$dev/wrap:$PATH AUTOCOLL_BUILD=$dev/build
rm -rf build/openmpi && mkdir -p build && cp -a "$dev/build/openmpi" build/
build/openmpi/autocoll-info --json > /dev/null || { echo "autocoll-info does not run"; exit 1; }
$info | grep -E 'Open MPI:|Prefix:|Configure command line' | head -3; command -v mpirun ompi_info
mpirun.openmpi --allow-run-as-root --mca plm isolated -n 2 "$dev/build/openmpi/bench/pingpong" 8 1M || exit 1

if [ -z "${SKIP_PINGPONG:-}" ]; then
echo "== point to point on the emulated one-switch cluster, 100 Mbit/s"
autocoll cluster up --name ppone --topology one-switch --nodes 2 --rate 100mbit \
    --subnet 10.78.0.0/16 || exit 1
autocoll cluster check --name ppone
autocoll cluster mpirun --name ppone -n 2 -- sh -c 'echo "$(hostname) LD_LIBRARY_PATH=$LD_LIBRARY_PATH"'
if [ -n "${DIAG:-}" ]; then
    env | grep -E '^(OMPI|PMIX|OPAL|HWLOC)' ; grep -v '^#' /etc/openmpi/openmpi-mca-params.conf
    grep -vE '^#|^$' /etc/openmpi/openmpi-default-hostfile; cat /etc/hosts; grep hosts /etc/nsswitch.conf
    cat /run/autocoll-cluster/ppone.openmpi.hosts
    getent hosts ppone-n1 ppone-n0 || echo "not resolved"
    ip netns exec ppone-n0 unshare --uts sh -c "hostname ppone-n0 && mpirun.openmpi \
        --allow-run-as-root --hostfile /run/autocoll-cluster/ppone.openmpi.hosts -n 2 \
        --map-by node --oversubscribe --display-allocation --display-map \
        --mca plm_rsh_agent $repo/bench/cluster/netns-ssh --mca oob_tcp_if_include eth0 \
        --mca plm_base_verbose 5 --mca ras_base_verbose 5 hostname" 2>&1 | head -80
    exit 0
fi
autocoll cluster mpirun --name ppone -n 2 --env OMPI_MCA_btl_base_verbose=100 -- \
    "$dev/build/openmpi/bench/pingpong" 8 2>&1 | grep -iE 'vader|tcp|select' | head -20
autocoll cluster mpirun --name ppone -n 2 -- "$dev/build/openmpi/bench/pingpong" \
    --iterations 200 8 64 512 1K 4K 16K 64K 256K 1M | tee "$res/pingpong-100mbit.txt"
autocoll cluster down --name ppone
lat=$(awk '$1 == 8 {print $2}' "$res/pingpong-100mbit.txt")
if awk -v l="${lat:-0}" 'BEGIN {exit !(l < 5)}'; then
    echo "8-byte latency ${lat:-?} us between two nodes: not over TCP, the matrix is not run"; exit 1
fi
fi

echo "== the matrix: ${parts[*]}"
start=$(date +%s)
timeout "${MATRIX_TIMEOUT:-420}" bench/cluster/emulated-matrix "$res" "${parts[@]}"
echo "matrix: exit $?, $(( $(date +%s) - start )) s"
autocoll cluster down --name emone >/dev/null 2>&1
autocoll cluster down --name emfour >/dev/null 2>&1
