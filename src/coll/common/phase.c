/*
 * phase.c - a composed instance's phases appended to its schedule (phase.h): by
 * the phase's schedule on the phase's communicator, or as one step calling its blocking
 * function there.
 */
#include "coll/common/phase.h"

#include <stdlib.h>
#include <string.h>

/* One phase's arguments, as its collective takes them (a rooted or reducing one: s* and r*
 * the send and receive sides; bcast: the buffer in rbuf, rcount, rtype). */
typedef struct phase_args {
    const ac_algorithm *alg;
    const void *sbuf;
    void *rbuf;
    int scount, rcount;
    MPI_Datatype stype, rtype;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    MPI_Op op;
    int root;
} phase_args;

/* Per collective: its blocking run on comm (a step's call) and its schedule on s; the
 * library's calls among the leaders (no algorithm): the blocking one and the nonblocking one
 * (`start`). */
typedef struct phase_kind {
    ac_sched_call_fn *call;
    int (*build)(ac_sched *s, const phase_args *a);
    ac_sched_start_fn *start;
} phase_kind;

int ac_phase_progressable(const ac_algorithm *alg)
{
    /* simulated, a phase of the library's own is not progressed: SMPI 3.32's MPI_Ireduce (and
     * the reductions built on it) is wrong on derived types with user ops, then crashes, and
     * hier_k2_native_binomial_tree's gather progressed on nodes of 2 deadlocked the simulation
     * (right under Open MPI and MPICH; docs/simgrid.md) */
    if (AUTOCOLL_SIMULATED && alg == ac_registry_native(alg->collective)) return 0;
    return ac_has_schedule(alg);
}

/* Appends phase a on comm: its schedule, or a step calling it where it is not written as one.
 * The library's own (native, and the leaders' gatherv and scatterv) is the step calling its
 * blocking function where the schedule is built for the blocking run (the calls, and the
 * simulated times, of the blocking instance), its nonblocking one (a library step, in its turn:
 * sched.h) where the schedule is progressed. */
static int append(ac_sched *s, MPI_Comm comm, const phase_args *a, const phase_kind *kind)
{
    MPI_Comm own = s->comm;
    int rc = MPI_SUCCESS;
    ac_sched_phase(s, comm);
    int library = !a->alg || a->alg == ac_registry_native(a->alg->collective);
    if (a->alg && kind->build && ac_phase_progressable(a->alg) && !(library && s->blocking)) {
        rc = kind->build(s, a);
    } else {
        phase_args *kept = ac_sched_tmp(s, sizeof *kept, MPI_BYTE);
        if (kept) {
            *kept = *a;
            if (!a->alg && kind->start && !s->blocking)
                ac_sched_library(s, kind->start, kept);
            else
                ac_sched_call(s, kind->call, kept);
        }
    }
    ac_sched_phase(s, own);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

static int call_barrier(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.barrier(comm, a->alg->params);
}
static int build_barrier(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.barrier(s, a->alg->params);
}
static const phase_kind barrier_kind = {call_barrier, build_barrier, NULL};

int ac_phase_barrier(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm)
{
    return append(s, comm, &(phase_args){.alg = alg}, &barrier_kind);
}

static int call_bcast(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.bcast(a->rbuf, a->rcount, a->rtype, a->root, comm, a->alg->params);
}
static int build_bcast(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.bcast(s, a->rbuf, a->rcount, a->rtype, a->root, a->alg->params);
}
static const phase_kind bcast_kind = {call_bcast, build_bcast, NULL};

int ac_phase_bcast(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, void *buf,
                        int count, MPI_Datatype dtype, int root)
{
    phase_args a = {.alg = alg, .rbuf = buf, .rcount = count, .rtype = dtype, .root = root};
    return append(s, comm, &a, &bcast_kind);
}

static int call_reduce(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.reduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, comm,
                             a->alg->params);
}
static int build_reduce(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.reduce(s, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root,
                                a->alg->params);
}
static const phase_kind reduce_kind = {call_reduce, build_reduce, NULL};

int ac_phase_reduce(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                         void *rbuf, int count, MPI_Datatype dtype, MPI_Op op, int root)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rtype = dtype,
                    .op = op, .root = root};
    return append(s, comm, &a, &reduce_kind);
}

static int call_allreduce(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.allreduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, comm,
                                a->alg->params);
}
static int build_allreduce(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.allreduce(s, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op,
                                   a->alg->params);
}
static const phase_kind allreduce_kind = {call_allreduce, build_allreduce, NULL};

int ac_phase_allreduce(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                            const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                            MPI_Op op)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rtype = dtype,
                    .op = op};
    return append(s, comm, &a, &allreduce_kind);
}

static int call_gather(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.gather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                             a->root, comm, a->alg->params);
}
static int build_gather(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.gather(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                a->root, a->alg->params);
}
static const phase_kind gather_kind = {call_gather, build_gather, NULL};

int ac_phase_gather(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                         int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .scount = scount, .stype = stype, .rbuf = rbuf,
                    .rcount = rcount, .rtype = rtype, .root = root};
    return append(s, comm, &a, &gather_kind);
}

static int call_scatter(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.scatter(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                              a->root, comm, a->alg->params);
}
static int build_scatter(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.scatter(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                 a->root, a->alg->params);
}
static const phase_kind scatter_kind = {call_scatter, build_scatter, NULL};

int ac_phase_scatter(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                          int scount, MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, int root)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .scount = scount, .stype = stype, .rbuf = rbuf,
                    .rcount = rcount, .rtype = rtype, .root = root};
    return append(s, comm, &a, &scatter_kind);
}

static int call_allgather(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                comm, a->alg->params);
}
static int build_allgather(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.allgather(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                   a->rtype, a->alg->params);
}
static const phase_kind allgather_kind = {call_allgather, build_allgather, NULL};

int ac_phase_allgather(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                       int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .scount = scount, .stype = stype, .rbuf = rbuf,
                    .rcount = rcount, .rtype = rtype};
    return append(s, comm, &a, &allgather_kind);
}

static int call_alltoall(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                               comm, a->alg->params);
}
static int build_alltoall(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.alltoall(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                  a->rtype, a->alg->params);
}
static const phase_kind alltoall_kind = {call_alltoall, build_alltoall, NULL};

int ac_phase_alltoall(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                      int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .scount = scount, .stype = stype, .rbuf = rbuf,
                    .rcount = rcount, .rtype = rtype};
    return append(s, comm, &a, &alltoall_kind);
}

static int call_allgatherv(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.allgatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls,
                                 a->rtype, comm, a->alg->params);
}
static int build_allgatherv(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.allgatherv(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts,
                                    a->rdispls, a->rtype, a->alg->params);
}
static const phase_kind allgatherv_kind = {call_allgatherv, build_allgatherv, NULL};

int ac_phase_allgatherv(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                             const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *displs, MPI_Datatype rtype)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .scount = scount, .stype = stype, .rbuf = rbuf,
                    .rcounts = rcounts, .rdispls = displs, .rtype = rtype};
    return append(s, comm, &a, &allgatherv_kind);
}

static int call_alltoallv(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                                a->rdispls, a->rtype, comm, a->alg->params);
}
static int build_alltoallv(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.alltoallv(s, a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                   a->rcounts, a->rdispls, a->rtype, a->alg->params);
}
static const phase_kind alltoallv_kind = {call_alltoallv, build_alltoallv, NULL};

int ac_phase_alltoallv(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                            const void *sbuf, const int *scounts, const int *sdispls,
                            MPI_Datatype stype, void *rbuf, const int *rcounts,
                            const int *rdispls, MPI_Datatype rtype)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .scounts = scounts, .sdispls = sdispls,
                    .stype = stype, .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls,
                    .rtype = rtype};
    return append(s, comm, &a, &alltoallv_kind);
}

static int call_reduce_scatter(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return a->alg->fn.reduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->rtype, a->op, comm,
                                     a->alg->params);
}
static int build_reduce_scatter(ac_sched *s, const phase_args *a)
{
    return a->alg->sched.reduce_scatter(s, a->sbuf, a->rbuf, a->rcounts, a->rtype, a->op,
                                        a->alg->params);
}
static const phase_kind reduce_scatter_kind = {call_reduce_scatter, build_reduce_scatter, NULL};

int ac_phase_reduce_scatter(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                                 const void *sbuf, void *rbuf, const int *rcounts,
                                 MPI_Datatype dtype, MPI_Op op)
{
    phase_args a = {.alg = alg, .sbuf = sbuf, .rbuf = rbuf, .rcounts = rcounts, .rtype = dtype,
                    .op = op};
    return append(s, comm, &a, &reduce_scatter_kind);
}

/* Every node's run of `block`-byte blocks among the leaders (ac_nodes_runs), kept in s. */
static int leaders_runs(ac_sched *s, const ac_nodes *nodes, MPI_Aint block, int **counts,
                        int **displs)
{
    int *c, *d, rc = ac_nodes_runs(nodes, block, &c, &d);
    if (rc != MPI_SUCCESS) return rc;
    *counts = ac_sched_tmp(s, nodes->nnodes, MPI_INT);
    *displs = ac_sched_tmp(s, nodes->nnodes, MPI_INT);
    if (*counts && *displs) {
        memcpy(*counts, c, sizeof(int) * (size_t)nodes->nnodes);
        memcpy(*displs, d, sizeof(int) * (size_t)nodes->nnodes);
    }
    free(c);
    free(d);
    return ac_sched_error(s);
}

static int call_gatherv(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return PMPI_Gatherv(a->sbuf, a->scount, MPI_BYTE, a->rbuf, a->rcounts, a->rdispls, MPI_BYTE,
                        a->root, comm);
}
static int start_igatherv(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const phase_args *a = arg;
    return PMPI_Igatherv(a->sbuf, a->scount, MPI_BYTE, a->rbuf, a->rcounts, a->rdispls,
                         MPI_BYTE, a->root, comm, req);
}
static const phase_kind gatherv_kind = {call_gatherv, NULL, start_igatherv};

int ac_phase_leaders_gatherv(ac_sched *s, const ac_nodes *nodes, MPI_Aint block,
                                  const void *from, void *all, int root_node)
{
    int *counts, *displs, rc = leaders_runs(s, nodes, block, &counts, &displs);
    if (rc != MPI_SUCCESS) return rc;
    phase_args a = {.sbuf = from, .scount = counts[nodes->node], .rbuf = all, .rcounts = counts,
                    .rdispls = displs, .root = root_node};
    return append(s, nodes->leaders, &a, &gatherv_kind);
}

static int call_scatterv(const void *arg, MPI_Comm comm)
{
    const phase_args *a = arg;
    return PMPI_Scatterv(a->sbuf, a->scounts, a->sdispls, MPI_BYTE, a->rbuf, a->rcount,
                         MPI_BYTE, a->root, comm);
}
static int start_iscatterv(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    const phase_args *a = arg;
    return PMPI_Iscatterv(a->sbuf, a->scounts, a->sdispls, MPI_BYTE, a->rbuf, a->rcount,
                          MPI_BYTE, a->root, comm, req);
}
static const phase_kind scatterv_kind = {call_scatterv, NULL, start_iscatterv};

int ac_phase_leaders_scatterv(ac_sched *s, const ac_nodes *nodes, MPI_Aint block,
                                   const void *all, void *to, int root_node)
{
    int *counts, *displs, rc = leaders_runs(s, nodes, block, &counts, &displs);
    if (rc != MPI_SUCCESS) return rc;
    phase_args a = {.sbuf = all, .scounts = counts, .sdispls = displs, .rbuf = to,
                    .rcount = counts[nodes->node], .root = root_node};
    return append(s, nodes->leaders, &a, &scatterv_kind);
}

void ac_phase_pieces(MPI_Aint block, int k, MPI_Aint lo[])
{
    for (int j = 0; j <= k; j++) /* floor(j block / k), without j block */
        lo[j] = block / k * j + block % k * j / k;
}

int ac_phase_lane_runs(ac_sched *s, const ac_nodes *nodes, int i, MPI_Aint block, int lo,
                       int len, char *by_node, char *by_lane, int to_lanes)
{
    int nn = nodes->nnodes, ppn = nodes->node_size[0], size = s->size;
    int *node_start = ac_sched_tmp(s, nn, MPI_INT);
    MPI_Datatype strided;
    if (!node_start) return ac_sched_error(s);
    for (int n = 0, at = 0; n < nn; at += nodes->node_size[n], n++)
        node_start[n] = at;
    int rc = PMPI_Type_vector(ppn, len, (int)block, MPI_BYTE, &strided);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&strided);
    if (rc != MPI_SUCCESS) return rc;
    ac_sched_own(s, strided);
    for (int r = 0, m = 0; r < size && m < nn; r++) {
        if (nodes->local_rank_of[r] != i) continue;
        char *node = by_node + (MPI_Aint)node_start[nodes->node_of[r]] * block + lo;
        char *lane = by_lane + (MPI_Aint)m++ * ppn * len;
        if (to_lanes)
            ac_sched_copy(s, node, 1, strided, lane, ppn * len, MPI_BYTE);
        else
            ac_sched_copy(s, lane, ppn * len, MPI_BYTE, node, 1, strided);
    }
    return ac_sched_error(s);
}

int ac_phase_rooted_pieces_begin(ac_sched *s, const ac_nodes *nodes, int k, MPI_Aint block,
                                 int root, ac_phase_rooted_pieces *pc)
{
    if (k > AC_HIER_SHARES) return MPI_ERR_ARG;
    int j = nodes->local_rank;
    pc->k = k;
    ac_phase_pieces(block, k, pc->lo);
    ac_nodes_lane_roots(nodes, s->size, nodes->node_of[root], k, pc->holder, pc->lane_root);
    pc->holds = j < k && s->rank == pc->holder[j];
    pc->pieces = s->rank == root || pc->holds
                     ? ac_sched_tmp(s, (MPI_Aint)s->size * block, MPI_BYTE)
                     : NULL;
    pc->node_run = j < k ? ac_sched_tmp(s, (MPI_Aint)nodes->node_size[0] * block, MPI_BYTE)
                         : NULL;
    return ac_sched_error(s);
}

void ac_phase_rooted_pieces_hand(ac_sched *s, const ac_phase_rooted_pieces *pc, int root,
                                 int to_root)
{
    for (int i = 0; i < pc->k; i++) {
        int len = pc->lo[i + 1] - pc->lo[i], holder = pc->holder[i];
        if (len == 0 || holder == root) continue;
        char *piece = pc->pieces ? pc->pieces + (MPI_Aint)s->size * pc->lo[i] : NULL;
        if (s->rank == (to_root ? holder : root))
            ac_sched_send(s, piece, s->size * len, MPI_BYTE, to_root ? root : holder);
        if (s->rank == (to_root ? root : holder))
            ac_sched_recv(s, piece, s->size * len, MPI_BYTE, to_root ? holder : root);
    }
    ac_sched_round(s);
}
