/*
 * common.h - helpers shared by the algorithms: buffers, datatypes, local reduction, phase
 * synchronisation, process-count arithmetic, mesh factorization and node layout.
 *
 * Error idiom: functions return MPI error codes (MPI_SUCCESS on success).
 */
#ifndef AUTOCOLL_COMMON_H
#define AUTOCOLL_COMMON_H

#include "coll/coll.h"

#include <stdatomic.h>
#include <stddef.h>

/* Tags on the private communicator. One algorithm runs per call and every algorithm completes
 * its own traffic before returning, so a few fixed tags suffice. AC_TAG_MESH_LINE + d: the
 * MPI_Comm_create_group of a mesh's lines of dimension d (mesh.c). */
enum { AC_TAG_DATA = 7001, AC_TAG_SYNC = 7002, AC_TAG_EXTRA = 7003, AC_TAG_MESH_LINE = 7010 };

/* A temporary buffer able to hold `count` elements of `dtype` laid out as MPI lays them out
 * (true extent, lower bound honoured). `buf` is the address to pass to MPI with `dtype`;
 * free with ac_tmp_free(). count 0 gives a valid non-NULL buffer. */
typedef struct ac_tmp {
    void *base;
    char *buf;
} ac_tmp;
int ac_tmp_alloc(ac_tmp *t, MPI_Aint count, MPI_Datatype dtype);
void ac_tmp_free(ac_tmp *t);

/* Extent and true extent of `count` elements (true_lb + (count-1)*extent + true_extent). */
MPI_Aint ac_extent(MPI_Datatype dtype);

/* The address `offset` bytes past buf, a user buffer that may be MPI_BOTTOM (absolute
 * displacements in the type): use it for a block of such a buffer. MPI_BOTTOM is address 0 in
 * Open MPI and MPICH (the plain sum then), but (void *)-111 in SimGrid's SMPI, which takes only
 * MPI_BOTTOM itself as address 0 (its requests and PMPI_Pack; its PMPI_Unpack not even that, see
 * ac_unpack): an address offset from it would be 111 bytes off. So the block's address is taken
 * from 0 there, and stays MPI_BOTTOM itself at offset 0. */
void *ac_at(const void *buf, MPI_Aint offset);

/* Local copy of data with matching type signatures (scount*stype == rcount*rtype). Contiguous
 * equal types use memcpy; anything else packs through MPI. */
int ac_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount,
            MPI_Datatype rtype);

/* PMPI_Pack / PMPI_Unpack that also accept MPI_BOTTOM (a NULL address with absolute
 * displacements in the type), which MPICH 4.0's pack functions reject: that case travels
 * through a send-receive to self with MPI_PACKED on one side, which MPI allows. Same
 * arguments and meaning as PMPI_Pack / PMPI_Unpack. */
int ac_pack(const void *inbuf, int incount, MPI_Datatype dtype, void *outbuf, int outsize,
            int *position, MPI_Comm comm);
int ac_unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
              MPI_Datatype dtype, MPI_Comm comm);

/* 1 if `count` elements of `dtype` are their own packed bytes, laid out from the buffer
 * address plus the type's lower bound: a predefined type without gaps, or a contiguous type
 * built from one. Such buffers can travel as MPI_PACKED without packing. */
int ac_is_bytes(MPI_Datatype dtype);

/* A byte view of `count` elements of `dtype` at `buf` (count * size bytes, MPI_Pack format):
 * the buffer itself when the type is plain bytes (ac_is_bytes), otherwise a temporary packed
 * copy, filled from buf when `load` is set. ac_bytes_release() unpacks the copy into buf when
 * `store` is set (and rc is MPI_SUCCESS), frees it, and returns rc or its own error. */
typedef struct ac_bytes {
    char *data; /* the bytes */
    char *copy; /* the temporary, or NULL when data is the user buffer */
    int size;   /* bytes */
} ac_bytes;
int ac_bytes_get(ac_bytes *b, const void *buf, int count, MPI_Datatype dtype, int load,
                 MPI_Comm comm);
int ac_bytes_release(ac_bytes *b, void *buf, int count, MPI_Datatype dtype, int store,
                     MPI_Comm comm, int rc);

/* inout = in op inout (MPI_Reduce_local order: `in` is the left operand). */
int ac_reduce_local(const void *in, void *inout, int count, MPI_Datatype dtype, MPI_Op op);

/* Combines a partner's operand, received at *other + offset, with this rank's at *acc + offset,
 * in rank order: other op acc when the partner's is below (partner_below), else acc op other,
 * which lands in *other: then the two buffers swap roles, so that *acc holds the result either
 * way. */
int ac_reduce_ordered(char **acc, char **other, MPI_Aint offset, int partner_below, int count,
                      MPI_Datatype dtype, MPI_Op op);

/* At an algorithm's end: completes the nreq requests it still has posted (after an error too,
 * before their buffers are freed); returns rc, or the wait's error when rc is MPI_SUCCESS. */
int ac_wait_pending(int rc, int nreq, MPI_Request *reqs, MPI_Status *stats);

/* The rank and size of comm, and the fold of the ranks above the largest power of two
 * p' <= size of the recursive doubling and halving algorithms: *pof2 = p', *rem = size - p'. */
int ac_fold_ranks(MPI_Comm comm, int *rank, int *size, int *pof2, int *rem);

/* count elements in n blocks, as even as can be, the first count % n one element larger: block
 * b has counts[b] elements (counts may be NULL) and is elements [displs[b], displs[b+1])
 * (displs has n + 1 entries). */
void ac_even_blocks(int count, int n, int *counts, int *displs);

/* Phase synchronisation between a phase's communications (STAR-MPI; phase_sync.c), as a round
 * of a schedule (common/sched.h): LIGHT exchanges a zero-byte token (one send to `to`, one
 * receive from `from`); BARRIER is the library's barrier where the schedule is built for the
 * blocking run (s->blocking), the dissemination barrier's messages where it is progressed (a
 * progressed schedule starts no library collective after its first round: sched.h); NONE adds
 * nothing. Append it between phases, not before the first one. */
struct ac_sched;
void ac_sched_sync_phase(struct ac_sched *s, ac_sync sync, int to, int from);

/* The preamble of a rooted gather or scatter: this rank and the size of `comm`, and the bytes
 * of one rank's block, taken from the arguments significant on this rank (`root_count` x
 * `root_type` at the root, `count` x `type` elsewhere): equal on every rank. */
int ac_rooted_block(MPI_Comm comm, int root, int root_count, MPI_Datatype root_type, int count,
                    MPI_Datatype type, int *rank, int *size, MPI_Aint *block);

/* Process-count arithmetic. */
int ac_is_pow2(int n);
int ac_pow2_floor(int n); /* largest power of two <= n (n >= 1) */
int ac_ceil_log2(int n);

/* Mesh factorization: dims[0] * ... * dims[ndims-1] == p, factors as close to p^(1/ndims) as
 * possible, dims[0] <= dims[1] <= ... . Factors of 1 appear when p has too few prime factors
 * (a prime p gives {1, p}); algorithms must handle them. */
void ac_mesh_dims(int p, int ndims, int *dims);

/* The value cached on `comm` under *keyval, or NULL when none is set yet; creates *keyval
 * (with `delete_fn`, which frees the value with the communicator) on first use, once whatever
 * the threads (MPI_THREAD_MULTIPLE); *keyval after a successful call is the keyval. */
int ac_comm_cached(MPI_Comm comm, atomic_int *keyval, MPI_Comm_delete_attr_function *delete_fn,
                   void **value);

/* Node layout of a communicator, from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), created on
 * first use and cached on `comm` (freed with it). AUTOCOLL_TEST_RANKS_PER_NODE=k replaces the
 * shared-memory split by emulated nodes of k processes (in blocks of world ranks, or dealt
 * round-robin: AUTOCOLL_TEST_PLACEMENT, ac_coll_set_test_nodes), so multi-node paths can be
 * tested on one machine. Collective over `comm` on first use. */
typedef struct ac_nodes {
    int nnodes;         /* number of nodes */
    int node;           /* index of this rank's node (ordered by lowest rank on the node) */
    int local_rank;     /* rank within the node */
    int local_size;     /* ranks on this node */
    int *node_of;       /* [size] node index of every rank */
    int *local_rank_of; /* [size] rank within its node of every rank */
    int *leader_of;     /* [nnodes] rank of each node's leader (its lowest rank) */
    int *node_size;     /* [nnodes] ranks on each node */
    int *order;         /* [size] ranks ordered node by node (a node-ordered logical ring) */
    MPI_Comm local;     /* ranks on this node */
    MPI_Comm leaders;   /* node leaders (local rank 0); MPI_COMM_NULL on other ranks */
    MPI_Comm lane;      /* the ranks of this rank's local rank on every node that has one, in
                         * comm's order: the nodes' order where nodes are blocks of ranks, not
                         * always elsewhere (lane 0 holds the leaders): multi-leader phases */
    int blocks;         /* 1 when every node's ranks are consecutive in comm (order[r] == r) */
} ac_nodes;
int ac_nodes_get(MPI_Comm comm, const ac_nodes **nodes);
/* 1 when comm's node layout is cached already (ac_nodes_get then sends nothing); local. Every
 * rank of comm gives the same answer: the layout is learned collectively. */
int ac_nodes_known(MPI_Comm comm);
/* 1 when every node of n holds as many ranks. */
int ac_nodes_equal(const ac_nodes *n);
/* For each j < k: the rank of comm (of `size` ranks) that is local rank j of `node`, rank[j],
 * and its rank in lane j, lane_rank[j] (lane j holds the ranks of local rank j in comm's order:
 * counted, as that is not always the nodes' order). `node` holds k ranks or more. With k = 1:
 * the node's leader and the node's index, its rank among the leaders, without a pass. */
void ac_nodes_lane_roots(const ac_nodes *n, int size, int node, int k, int rank[],
                         int lane_rank[]);
/* The nodes' runs of blocks of `block` bytes, node by node (a hierarchical gather or scatter
 * among the leaders): counts[i] = node_size[i] x block and displs[i] their offsets, both
 * malloc'd (free them); MPI_ERR_NO_MEM without memory (then both NULL). */
int ac_nodes_runs(const ac_nodes *n, MPI_Aint block, int **counts, int **displs);

/* What a hierarchical bcast, reduce or allreduce starts from (ac_hier_begin): the nodes of
 * comm, this rank and the size, and the message of `count` elements in k shares (k =
 * p->leaders, 1 where that is 0 or 1; share s is counts[s] elements at displs[s] x extent,
 * ac_hier_share), of which the first `shares` run: those of at least one element (k = 1: the
 * one share, whatever its count). */
typedef struct ac_hier_call {
    const ac_nodes *nodes;
    int rank, size;
    int k, shares;
    int counts[AC_HIER_SHARES], displs[AC_HIER_SHARES + 1];
    MPI_Aint extent;
} ac_hier_call;
/* MPI_ERR_ARG where k > AC_HIER_SHARES. */
int ac_hier_begin(ac_hier_call *h, MPI_Comm comm, const ac_params *p, int count,
                  MPI_Datatype dtype);
static inline char *ac_hier_share(const ac_hier_call *h, const void *buf, int s)
{
    return (char *)buf + h->displs[s] * h->extent;
}

#endif
