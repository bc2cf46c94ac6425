/*
 * stand_ins.c - what prices the library's own collective where it runs a phase of a composed
 * instance (an orthogonal instance's `native` phase, a hierarchical instance's intra- or
 * inter-node phase): the registry entry the library's default rules choose for that call,
 * whose model is ours (cost.c, phase_priced). A stand-in, not the library: the model strategy
 * measures a candidate before it wins, so a stand-in's error costs measurements, never a wrong
 * choice unseen; but a stand-in far from what the library runs misranks the instances of one
 * family (docs/model.md: a node's reduce of 64 KiB priced as MPICH's Rabenseifner where Open
 * MPI's tuned runs an unsegmented binomial tree 2.6 x slower, so the instance with a
 * shared-memory phase was never measured).
 *
 * Two sets of rules (AC_STAND_INS_*, AUTOCOLL_MODEL_STAND_INS):
 *   mpich  MPICH 4's generic defaults (tables/mpich4_defaults.py transcribes them for the table
 *          of docs/baselines.md);
 *   tuned  Open MPI's coll/tuned fixed decisions (coll_tuned_decision_fixed.c, Open MPI 4.1 to
 *          5.0, whose rules SimGrid 3.32's `ompi` selector copies: smpi_openmpi_selector.cpp,
 *          "Updated 02/2022"), for commutative built-in ops.
 * Their thresholds here: a message of MPI_DOUBLE elements and a built-in op. Rules in order, the
 * first that holds: the size p a power of two or not (POW2_ANY: either), p < max_p (0: any p),
 * b <= max_bytes (b as ac_call counts it, b / p with PER_RANK; NO_LIMIT: any), b x p <
 * max_total (NO_LIMIT: any), b < 8 pof2 (count < pof2 of 8-byte elements) with BELOW_POF2.
 */
#include "coll/cost.h"
#include "coll/common/common.h"

#include <stddef.h>

enum { POW2_ANY, POW2_YES, POW2_NO };
#define NO_LIMIT 1e300
typedef struct stand_in {
    ac_collective collective;
    int pow2;
    int max_p;
    double max_bytes, max_total;
    int flags; /* BELOW_POF2, PER_RANK */
    const char *name;
} stand_in;

enum {
    BELOW_POF2 = 1, /* b < 8 pof2 (count < pof2 of 8-byte elements) */
    PER_RANK = 2    /* max_bytes bounds b / p (allgatherv per rank; reduce: binomial cut-off) */
};

static const stand_in mpich_rules[] = {
    {AC_ALLREDUCE, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, BELOW_POF2, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_BCAST, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 0, 12288, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_YES, 0, 524288, NO_LIMIT, 0, "scatter_recursive_doubling_allgather"},
    {AC_BCAST, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "scatter_ring_allgather"},
    {AC_REDUCE, POW2_ANY, 0, 2048, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, BELOW_POF2, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "rabenseifner"},
    {AC_ALLGATHER, POW2_YES, 0, NO_LIMIT, 524288, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_NO, 0, NO_LIMIT, 81920, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHERV, POW2_YES, 0, 524287, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHERV, POW2_NO, 0, 81919, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLTOALL, POW2_ANY, 9, 32768, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 0, 256, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 0, 32768, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_YES, 0, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLTOALLV, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_GATHER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_BARRIER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "dissemination"},
    {AC_REDUCE_SCATTER, POW2_ANY, 0, 524287, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "pairwise"},
};

/* Open MPI's coll/tuned fixed decisions (coll_tuned_decision_fixed.c of Open MPI 4.1 to 5.0) as
 * SimGrid 3.32's `ompi` selector copies them (src/smpi/colls/smpi_openmpi_selector.cpp, "Updated
 * 02/2022") with its algorithms' segment sizes (the files of src/smpi/colls/<collective>), for a
 * commutative op: tuned's `communicator_size < X` is max_p X, its `total_dsize < Y` max_bytes
 * Y - 1. Each of tuned's algorithms is the registry entry of its shape, the nearest segment size
 * where tuned's has none of ours (1, 8, 64 KiB), the unsegmented tree where a row's messages
 * all fit one segment (the segmented instance is then its twin: the same messages, the same
 * price); where the registry has no entry of that shape, the comment of the collective says
 * what stands for it. Where a segment size depends on p within one of tuned's ranges of p, the
 * rows follow it: a row for each p (bcast's chain), or a bound on b / p (reduce's binomial tree,
 * see there). tests/unit/test_cost.c checks points read off the selector's source. */
static const stand_in tuned_rules[] = {
    /* allreduce, b = the vector = tuned's total_dsize. Its basic_linear and nonoverlapping (a
     * reduce, then a bcast) have no registry entry: recursive doubling (as many latencies, half
     * the steps); segmented ring: ring */
    {AC_ALLREDUCE, POW2_ANY, 4, 7, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 4, 4095, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 4, 8191, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 4, 16383, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 4, 262143, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 8, 15, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 8, 8191, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 16, 8191, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 16, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 32, 63, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 32, 4095, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 64, 127, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 128, 262143, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 256, 262143, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 512, 4095, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 2048, 16383, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 2048, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 4096, 2047, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 4096, 4095, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 4096, 16383, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 4096, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 0, 2047, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 0, 16383, NO_LIMIT, 0, "ring"},
    {AC_ALLREDUCE, POW2_ANY, 0, 32767, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLREDUCE, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "rabenseifner_recursive_doubling"},
    /* bcast, b = total_dsize. SimGrid runs tuned's basic_linear as a chain in 8 KiB segments
     * (NTSL), its binary tree as one in 8 KiB segments (NTSB), knomial with radix 4 (MVAPICH2's
     * intra-node k-nomial tree, unsegmented), binomial unsegmented, pipeline and chain as one
     * chain in 16, 64 or 128 KiB segments by p and b (bcast-ompi-pipeline.cpp: 16 KiB is the 8
     * KiB instance here, 64 and 128 KiB the 64 KiB one), the split binary tree (two halves down
     * one binary tree) in 1 KiB segments below 370728 B: the binary tree in 1 KiB segments */
    {AC_BCAST, POW2_ANY, 4, 31, NO_LIMIT, 0, "chain_tree"},
    {AC_BCAST, POW2_ANY, 4, 255, NO_LIMIT, 0, "binary_tree"},
    {AC_BCAST, POW2_ANY, 4, 511, NO_LIMIT, 0, "chain_tree"},
    {AC_BCAST, POW2_ANY, 4, 1023, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 4, 8192, NO_LIMIT, 0, "chain_tree"},
    {AC_BCAST, POW2_ANY, 4, 32767, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 4, 131071, NO_LIMIT, 0, "binary_tree_segment_8k"},
    /* chain: 128 KiB segments at p = 2 (one segment up to 131072 B), 16 KiB at p = 3 */
    {AC_BCAST, POW2_ANY, 3, 131072, NO_LIMIT, 0, "chain_tree"},
    {AC_BCAST, POW2_ANY, 3, 262143, NO_LIMIT, 0, "chain_tree_segment_64k"},
    {AC_BCAST, POW2_ANY, 4, 524287, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 4, 1048575, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "binary_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 8, 63, NO_LIMIT, 0, "binary_tree"},
    {AC_BCAST, POW2_ANY, 8, 127, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 8, 2047, NO_LIMIT, 0, "binary_tree"},
    {AC_BCAST, POW2_ANY, 8, 8191, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 8, 8192, NO_LIMIT, 0, "chain_tree"},
    {AC_BCAST, POW2_ANY, 8, 1048575, NO_LIMIT, 0, "chain_tree_segment_8k"},
    /* chain from 1 MiB: 16 KiB segments up to the bytes where p < 1.6134e-6 b + 2.1102 (128
     * KiB) or p < 2.3679e-6 b + 1.1787 (64 KiB) first holds, for p = 4, 5, 6, 7 */
    {AC_BCAST, POW2_ANY, 5, 1171315, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 5, NO_LIMIT, NO_LIMIT, 0, "chain_tree_segment_64k"},
    {AC_BCAST, POW2_ANY, 6, 1613792, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 6, NO_LIMIT, NO_LIMIT, 0, "chain_tree_segment_64k"},
    {AC_BCAST, POW2_ANY, 7, 2036107, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 7, NO_LIMIT, NO_LIMIT, 0, "chain_tree_segment_64k"},
    {AC_BCAST, POW2_ANY, 8, 2458423, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "chain_tree_segment_64k"},
    {AC_BCAST, POW2_ANY, 16, 7, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 16, 63, NO_LIMIT, 0, "binary_tree"},
    {AC_BCAST, POW2_ANY, 16, 4095, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 16, 8192, NO_LIMIT, 0, "binary_tree"},
    {AC_BCAST, POW2_ANY, 16, 16383, NO_LIMIT, 0, "binary_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 16, 32767, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 16, NO_LIMIT, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 32, 4095, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 32, 1048575, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, 0, "scatter_recursive_doubling_allgather"},
    {AC_BCAST, POW2_ANY, 64, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 256, 1, NO_LIMIT, 0, "binomial_tree"},
    {AC_BCAST, POW2_ANY, 256, 8192, NO_LIMIT, 0, "binary_tree"},
    {AC_BCAST, POW2_ANY, 256, 16383, NO_LIMIT, 0, "binary_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 256, 32767, NO_LIMIT, 0, "chain_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 256, 65535, NO_LIMIT, 0, "binary_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 1024, 16383, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 1024, 32767, NO_LIMIT, 0, "binary_tree_segment_1k"},
    {AC_BCAST, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 2048, 524287, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 2048, NO_LIMIT, NO_LIMIT, 0, "scatter_recursive_doubling_allgather"},
    {AC_BCAST, POW2_ANY, 4096, 262143, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 4096, NO_LIMIT, NO_LIMIT, 0, "scatter_recursive_doubling_allgather"},
    {AC_BCAST, POW2_ANY, 0, 8191, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 0, 8192, NO_LIMIT, 0, "binary_tree"},
    {AC_BCAST, POW2_ANY, 0, 16383, NO_LIMIT, 0, "binary_tree_segment_8k"},
    {AC_BCAST, POW2_ANY, 0, 262143, NO_LIMIT, 0, "knomial_tree_k4"},
    {AC_BCAST, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "scatter_recursive_doubling_allgather"},
    /* reduce, b = total_dsize, a commutative op; its rabenseifner (7) SimGrid runs as
     * basic_linear: the flat tree. binomial: 1 KiB segments from 2 KiB while p > 0.6016 / 1024 b
     * + 1.3496 (p >= 8 only), else unsegmented: here up to b = X p (PER_RANK), X the bytes at
     * the smallest p0 of the row's range over p0 (exact at p0, 2297 (p / p0 - 1) B short above);
     * binary: 32 KiB segments (the message whole where tuned runs it, below 32 KiB); pipeline:
     * one chain in 32 or 64 KiB segments at p < 4 (64 KiB here; whole below 32 B); chain, fan-out
     * p / 2 in 64 KiB segments: one chain at p < 4, and at 4 <= p < 8 (below 64 KiB, whole) a
     * root of 2 or 3 chains of at most two ranks, for which the binomial tree stands (its root
     * has as many children or one more, its depth is 2 or 3 where the chains' is 2); in-order
     * binary (segments 0): the binary tree */
    {AC_REDUCE, POW2_ANY, 4, 7, NO_LIMIT, 0, "flat_tree"},
    {AC_REDUCE, POW2_ANY, 4, 15, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 4, 31, NO_LIMIT, 0, "chain_tree"},
    {AC_REDUCE, POW2_ANY, 4, 262143, NO_LIMIT, 0, "flat_tree"},
    {AC_REDUCE, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "chain_tree_segment_64k"},
    {AC_REDUCE, POW2_ANY, 8, 4095, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 8, 262143, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 8, 524287, NO_LIMIT, 0, "flat_tree"},
    {AC_REDUCE, POW2_ANY, 8, 1048575, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_REDUCE, POW2_ANY, 16, 8191, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 16, 11319.0 / 8, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 16, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 32, 4095, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 32, 24936.0 / 16, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 64, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 64, 52170.0 / 32, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 128, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 128, 106638.0 / 64, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 256, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 256, 215575.0 / 128, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 512, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 512, 8191, NO_LIMIT, 0, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 512, 16383, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 512, 433447.0 / 256, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 1024, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 1024, 869192.0 / 512, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 2048, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 2048, 1740681.0 / 1024, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 2048, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 4096, 511, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 4096, 1023, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 4096, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 4096, 8191, NO_LIMIT, 0, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 4096, 16383, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 4096, 3483660.0 / 2048, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 4096, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 0, 15, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 0, 31, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 0, 1023, NO_LIMIT, 0, "binomial_tree"},
    {AC_REDUCE, POW2_ANY, 0, 2047, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 0, 8191, NO_LIMIT, 0, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 0, 16383, NO_LIMIT, 0, "binary_tree"},
    {AC_REDUCE, POW2_ANY, 0, 6969617.0 / 4096, NO_LIMIT, PER_RANK, "binomial_tree_segment_1k"},
    {AC_REDUCE, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    /* allgather, b = one block = total_dsize; neighbour exchange: the ring (the same bytes in
     * half the steps) */
    {AC_ALLGATHER, POW2_ANY, 3, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLGATHER, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 64, 1023, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHER, POW2_ANY, 128, 511, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHER, POW2_ANY, 256, 511, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHER, POW2_ANY, 512, 31, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 512, 127, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 512, 1023, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHER, POW2_ANY, 1024, 63, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 1024, 255, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 1024, 2047, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHER, POW2_ANY, 2048, 3, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 2048, 7, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 2048, 15, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 2048, 31, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 2048, 255, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 2048, 511, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 2048, 4095, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 2048, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHER, POW2_ANY, 4096, 31, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 4096, 127, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 4096, 511, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 4096, 4095, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 4096, NO_LIMIT, NO_LIMIT, 0, "ring"},
    {AC_ALLGATHER, POW2_ANY, 0, 1, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 0, 7, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 0, 15, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 0, 511, NO_LIMIT, 0, "bruck"},
    {AC_ALLGATHER, POW2_ANY, 0, 4095, NO_LIMIT, 0, "recursive_doubling"},
    {AC_ALLGATHER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "ring"},
    /* allgatherv, b / p = tuned's per_rank_dsize (PER_RANK); gather then bcast (GB): Bruck;
     * neighbour exchange: the ring */
    {AC_ALLGATHERV, POW2_ANY, 3, 2047, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 3, 4095, NO_LIMIT, PER_RANK, "pair"},
    {AC_ALLGATHERV, POW2_ANY, 3, 8191, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 3, NO_LIMIT, NO_LIMIT, PER_RANK, "pair"},
    {AC_ALLGATHERV, POW2_ANY, 8, 255, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 8, 16383, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 8, 262143, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 16, NO_LIMIT, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 32, 262143, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 64, 8191, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 128, 4095, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 256, 1023, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 512, 1023, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 1024, 4095, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    {AC_ALLGATHERV, POW2_ANY, 0, 4095, NO_LIMIT, PER_RANK, "bruck"},
    {AC_ALLGATHERV, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, PER_RANK, "ring"},
    /* alltoall, b = one block = total_dsize; basic linear, linear with at most N requests in
     * flight and two_proc (SimGrid runs both as basic linear): simple */
    {AC_ALLTOALL, POW2_ANY, 3, 1, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 3, 3, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 3, 15, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 3, 63, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 3, 255, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 3, 4095, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 3, 32767, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 3, 1048575, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 3, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 8, 524287, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 8, 1048575, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 16, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 32, 3, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 32, 511, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 64, 511, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 128, 1023, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 128, 262143, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 256, 1023, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 256, 262143, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 512, 1023, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 512, 32767, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 1024, 511, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 1024, 262143, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALL, POW2_ANY, 2048, 511, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 2048, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 4096, 1023, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 4096, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALL, POW2_ANY, 0, 2047, NO_LIMIT, 0, "bruck"},
    {AC_ALLTOALL, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "simple"},
    /* alltoallv: basic linear (simple) or pairwise (pair) by p alone */
    {AC_ALLTOALLV, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALLV, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALLV, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALLV, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "simple"},
    {AC_ALLTOALLV, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, 0, "pair"},
    {AC_ALLTOALLV, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "simple"},
    /* gather, b = one block; linear_sync: the flat tree */
    {AC_GATHER, POW2_ANY, 4, 3, NO_LIMIT, 0, "flat_tree"},
    {AC_GATHER, POW2_ANY, 4, 32767, NO_LIMIT, 0, "binomial_tree"},
    {AC_GATHER, POW2_ANY, 4, 65535, NO_LIMIT, 0, "flat_tree"},
    {AC_GATHER, POW2_ANY, 4, 131071, NO_LIMIT, 0, "binomial_tree"},
    {AC_GATHER, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_GATHER, POW2_ANY, 8, 1023, NO_LIMIT, 0, "binomial_tree"},
    {AC_GATHER, POW2_ANY, 8, 8191, NO_LIMIT, 0, "flat_tree"},
    {AC_GATHER, POW2_ANY, 8, 32767, NO_LIMIT, 0, "binomial_tree"},
    {AC_GATHER, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_GATHER, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_GATHER, POW2_ANY, 512, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_GATHER, POW2_ANY, 512, 8191, NO_LIMIT, 0, "flat_tree"},
    {AC_GATHER, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    {AC_GATHER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "binomial_tree"},
    /* scatter, b = one block; linear_nb: the flat tree */
    {AC_SCATTER, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_SCATTER, POW2_ANY, 8, 2047, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 8, 4095, NO_LIMIT, 0, "flat_tree"},
    {AC_SCATTER, POW2_ANY, 8, 8191, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_SCATTER, POW2_ANY, 16, 16383, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 16, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_SCATTER, POW2_ANY, 32, 16383, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_SCATTER, POW2_ANY, 64, 511, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 64, 8191, NO_LIMIT, 0, "flat_tree"},
    {AC_SCATTER, POW2_ANY, 64, 16383, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    {AC_SCATTER, POW2_ANY, 0, 511, NO_LIMIT, 0, "binomial_tree"},
    {AC_SCATTER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "flat_tree"},
    /* barrier; bruck: dissemination; tree (a binomial fan-in and fan-out): recursive doubling */
    {AC_BARRIER, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "recursive_doubling"},
    {AC_BARRIER, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "linear"},
    {AC_BARRIER, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "recursive_doubling"},
    {AC_BARRIER, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "dissemination"},
    {AC_BARRIER, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, 0, "recursive_doubling"},
    {AC_BARRIER, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, 0, "dissemination"},
    {AC_BARRIER, POW2_ANY, 4096, NO_LIMIT, NO_LIMIT, 0, "recursive_doubling"},
    {AC_BARRIER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "dissemination"},
    /* reduce_scatter, b = the vector = total_dsize; default (a reduce, then a scatterv):
     * reduce_then_scatter; ring: pairwise; butterfly: recursive halving */
    {AC_REDUCE_SCATTER, POW2_ANY, 4, 65535, NO_LIMIT, 0, "pairwise"},
    {AC_REDUCE_SCATTER, POW2_ANY, 4, 131071, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 4, NO_LIMIT, NO_LIMIT, 0, "pairwise"},
    {AC_REDUCE_SCATTER, POW2_ANY, 8, 7, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 8, 262143, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 8, NO_LIMIT, NO_LIMIT, 0, "pairwise"},
    {AC_REDUCE_SCATTER, POW2_ANY, 32, 262143, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 32, NO_LIMIT, NO_LIMIT, 0, "pairwise"},
    {AC_REDUCE_SCATTER, POW2_ANY, 64, 63, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 64, 524287, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 64, NO_LIMIT, NO_LIMIT, 0, "pairwise"},
    {AC_REDUCE_SCATTER, POW2_ANY, 128, 255, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 128, NO_LIMIT, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 256, 255, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 256, NO_LIMIT, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 512, 255, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 512, NO_LIMIT, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 1024, 511, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 1024, NO_LIMIT, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 2048, 511, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 2048, NO_LIMIT, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 4096, 511, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 4096, NO_LIMIT, NO_LIMIT, 0, "recursive_halving"},
    {AC_REDUCE_SCATTER, POW2_ANY, 0, 1023, NO_LIMIT, 0, "reduce_then_scatter"},
    {AC_REDUCE_SCATTER, POW2_ANY, 0, NO_LIMIT, NO_LIMIT, 0, "recursive_halving"},
};

typedef struct rule_set {
    const stand_in *rules;
    size_t count;
} rule_set;

static const rule_set rule_sets[AC_STAND_INS_COUNT] = {
    [AC_STAND_INS_MPICH] = {mpich_rules, sizeof mpich_rules / sizeof mpich_rules[0]},
    [AC_STAND_INS_TUNED] = {tuned_rules, sizeof tuned_rules / sizeof tuned_rules[0]},
};

static int current = AC_STAND_INS_MPICH;

void ac_cost_set_stand_ins(int rules)
{
    if (rules >= 0 && rules < AC_STAND_INS_COUNT) current = rules;
}

int ac_cost_stand_ins(void)
{
    return current;
}

const char *ac_cost_stand_in(ac_collective c, int p, double b)
{
    /* both rule sets choose a reduce_scatter_block as the reduce_scatter of its vector (SimGrid
     * runs it as one; MPICH 4's thresholds are the same), and the two registries share names */
    if (c == AC_REDUCE_SCATTER_BLOCK) c = AC_REDUCE_SCATTER;
    const rule_set *set = &rule_sets[current];
    int pow2 = ac_is_pow2(p);
    for (size_t i = 0; i < set->count; i++) {
        const stand_in *r = &set->rules[i];
        if (r->collective != c) continue;
        if ((r->pow2 == POW2_YES && !pow2) || (r->pow2 == POW2_NO && pow2)) continue;
        double per = r->flags & PER_RANK ? b / p : b;
        if ((r->max_p > 0 && p >= r->max_p) || per > r->max_bytes || b * p >= r->max_total)
            continue;
        if ((r->flags & BELOW_POF2) && !(b < 8.0 * ac_pow2_floor(p))) continue;
        return r->name;
    }
    return NULL;
}
