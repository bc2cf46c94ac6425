#!/bin/bash
# blocking_times.sh BUILD OUT - the simulated time of one MPI_Neighbor_alltoall
# (bench/neighbor_exchange.c, 20 calls after 10 warm-up) with each of the layer's algorithms
# forced, on two platforms, 1, 2, 8 and 12 ranks, periodic 1-, 2- and 3-D Cartesian
# communicators (MPI_Dims_create: dimensions of one and two processes among them), 8 B and
# 64 KiB an edge. Run from the repository root with a SimGrid build (BUILD/simgrid).
B=$1; OUT=$2; : > "$OUT"
for plat in one-switch-gbe fat-tree-ib; do
for np in 1 2 8 12; do for nd in 1 2 3; do for bytes in 8 65536; do
for alg in isend_irecv sendrecv_pair win_fence_put; do
  r=$(AUTOCOLL_TEST_PLATFORM=$plat AUTOCOLL_NEIGHBOR_ALLTOALL=$alg \
      tests/mpirun.sh simgrid $np "$B/simgrid/bench/neighbor_exchange" $nd $bytes 20 2>/dev/null |
      grep neighbor_exchange:)
  echo "$plat np$np $alg $r" >> "$OUT"
done; done; done; done; done
