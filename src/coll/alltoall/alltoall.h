/* alltoall.h - the alltoall algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLTOALL_H
#define AUTOCOLL_ALLTOALL_H

#include "coll/alltoallv/alltoallv.h"
#include "coll/coll.h"

AC_DECLARE_SCHEDULED(alltoall, native) /* the library's MPI_Ialltoall */
AC_DECLARE_SCHEDULED(alltoall, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_ALLTOALLV_ENGINES(AC_DECLARE_SCHEDULED, alltoall) /* alltoallv.h */
AC_DECLARE_SCHEDULED(alltoall, mesh) /* p->dims */
AC_DECLARE_SCHEDULED(alltoall, recursive_doubling)
AC_DECLARE_SCHEDULED(alltoall, bruck)
/* node_aware, node_aware_ring and the hierarchical instances (p->intra, p->phase) */
AC_DECLARE_SCHEDULED(alltoall, node_aware)
ac_alltoall_fn ac_alltoall_shm; /* through the node's shared memory (common/shm.h) */

/* Helpers of this folder (blocks.c).
 *
 * Algorithms that forward other ranks' blocks keep them packed: block j of an alltoall buffer
 * (`count` elements of `dtype` at buf + j*count*extent) becomes a slot of `bytes` =
 * count * size(dtype) bytes, independent of the user's send and receive types. */
int ac_alltoall_pack(const void *buf, int count, MPI_Datatype dtype, int first, int n, char *out,
                     MPI_Aint bytes, MPI_Comm comm);
int ac_alltoall_unpack(const char *in, MPI_Aint bytes, int first, int n, void *buf, int count,
                       MPI_Datatype dtype, MPI_Comm comm);

/* The same as local steps of s's current round (run at each start). */
struct ac_sched;
int ac_alltoall_pack_schedule(struct ac_sched *s, const void *buf, int count, MPI_Datatype dtype,
                              int first, int n, char *out, MPI_Aint bytes);
int ac_alltoall_unpack_schedule(struct ac_sched *s, const char *in, MPI_Aint bytes, int first,
                                int n, void *buf, int count, MPI_Datatype dtype);

/* The start of the algorithms that move packed slots (mesh, recursive doubling, Bruck,
 * node-aware): *rank and *size of comm, and the slot's bytes (rcount elements of rtype),
 * returned; with MPI_IN_PLACE the send arguments become the receive ones (every outgoing block
 * is packed before anything arrives). */
MPI_Aint ac_alltoall_slots_start(MPI_Comm comm, const void **sbuf, int *scount,
                                 MPI_Datatype *stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                 int *rank, int *size);

/* One packed slot of `bytes` bytes as an MPI datatype (committed; free with PMPI_Type_free). */
int ac_alltoall_slot_type(MPI_Aint bytes, MPI_Datatype *type);

/* Runs an alltoallv engine with the uniform counts and displacements of an alltoall. */
int ac_alltoall_by_alltoallv(ac_alltoallv_fn *engine, const void *sbuf, int scount,
                             MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                             MPI_Comm comm, const ac_params *p);
/* The same for an engine written as a schedule: appends it to s. */
struct ac_sched;
int ac_alltoall_by_alltoallv_schedule(ac_alltoallv_sched_fn *engine, struct ac_sched *s,
                                      const void *sbuf, int scount, MPI_Datatype stype,
                                      void *rbuf, int rcount, MPI_Datatype rtype,
                                      const ac_params *p);
/* ac_alltoall_<engine> and ac_alltoall_<engine>_schedule: the alltoallv engine written as a
 * schedule, ac_alltoallv_<engine>(_schedule), with uniform counts. */
#define AC_ALLTOALL_BY_ALLTOALLV(engine)                                                       \
    int ac_alltoall_##engine(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,     \
                             int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p) \
    {                                                                                          \
        return ac_alltoall_by_alltoallv(ac_alltoallv_##engine, sbuf, scount, stype, rbuf,      \
                                        rcount, rtype, comm, p);                               \
    }                                                                                          \
    int ac_alltoall_##engine##_schedule(struct ac_sched *s, const void *sbuf, int scount,      \
                                        MPI_Datatype stype, void *rbuf, int rcount,            \
                                        MPI_Datatype rtype, const ac_params *p)                \
    {                                                                                          \
        return ac_alltoall_by_alltoallv_schedule(ac_alltoallv_##engine##_schedule, s, sbuf,    \
                                                 scount, stype, rbuf, rcount, rtype, p);       \
    }

#endif
