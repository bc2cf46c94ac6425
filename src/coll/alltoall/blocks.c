/*
 * blocks.c - helpers shared by the alltoall algorithms of this folder: packed block slots (and
 * the start of the algorithms that move them) and the uniform-count bridge to the alltoallv
 * engines (blocking, and as schedules).
 *
 * Packed slots: a block is packed with the sender's datatype and unpacked with the receiver's,
 * so intermediate ranks (mesh, recursive doubling, Bruck, node leaders) move plain bytes and
 * never need to know either type. The slot size is the block's type-signature size; packing
 * checks that the library's packed form has exactly that size.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <limits.h>
#include <stdlib.h>

MPI_Aint ac_alltoall_slots_start(MPI_Comm comm, const void **sbuf, int *scount,
                                 MPI_Datatype *stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                 int *rank, int *size)
{
    int rsize;
    PMPI_Comm_rank(comm, rank);
    PMPI_Comm_size(comm, size);
    PMPI_Type_size(rtype, &rsize);
    if (*sbuf == MPI_IN_PLACE) {
        *sbuf = rbuf;
        *scount = rcount;
        *stype = rtype;
    }
    return (MPI_Aint)rcount * rsize;
}

int ac_alltoall_pack(const void *buf, int count, MPI_Datatype dtype, int first, int n, char *out,
                     MPI_Aint bytes, MPI_Comm comm)
{
    MPI_Aint stride = (MPI_Aint)count * ac_extent(dtype);
    int rc = MPI_SUCCESS;
    if (bytes == 0 || n == 0) return MPI_SUCCESS;
    if ((MPI_Aint)n * bytes <= INT_MAX && (MPI_Aint)n * count <= INT_MAX) {
        int pos = 0;
        rc = ac_pack(ac_at(buf, first * stride), n * count, dtype, out, (int)(n * bytes),
                     &pos, comm);
        if (rc == MPI_SUCCESS && pos != n * bytes) rc = MPI_ERR_INTERN;
        return rc;
    }
    if (bytes > INT_MAX) return MPI_ERR_COUNT;
    for (int j = 0; j < n && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        rc = ac_pack(ac_at(buf, (first + j) * stride), count, dtype, out + j * bytes,
                     (int)bytes, &pos, comm);
        if (rc == MPI_SUCCESS && pos != bytes) rc = MPI_ERR_INTERN;
    }
    return rc;
}

int ac_alltoall_unpack(const char *in, MPI_Aint bytes, int first, int n, void *buf, int count,
                       MPI_Datatype dtype, MPI_Comm comm)
{
    MPI_Aint stride = (MPI_Aint)count * ac_extent(dtype);
    int rc = MPI_SUCCESS;
    if (bytes == 0 || n == 0) return MPI_SUCCESS;
    if ((MPI_Aint)n * bytes <= INT_MAX && (MPI_Aint)n * count <= INT_MAX) {
        int pos = 0;
        return ac_unpack(in, (int)(n * bytes), &pos, ac_at(buf, first * stride), n * count, dtype,
                         comm);
    }
    if (bytes > INT_MAX) return MPI_ERR_COUNT;
    for (int j = 0; j < n && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        rc = ac_unpack(in + j * bytes, (int)bytes, &pos, ac_at(buf, (first + j) * stride), count,
                       dtype, comm);
    }
    return rc;
}

int ac_alltoall_pack_schedule(ac_sched *s, const void *buf, int count, MPI_Datatype dtype,
                              int first, int n, char *out, MPI_Aint bytes)
{
    MPI_Aint stride = (MPI_Aint)count * ac_extent(dtype);
    if (bytes == 0 || n == 0) return ac_sched_error(s);
    if ((MPI_Aint)n * bytes <= INT_MAX && (MPI_Aint)n * count <= INT_MAX) {
        ac_sched_pack(s, ac_at(buf, first * stride), n * count, dtype, out,
                      (int)(n * bytes));
        return ac_sched_error(s);
    }
    if (bytes > INT_MAX) return MPI_ERR_COUNT;
    for (int j = 0; j < n; j++)
        ac_sched_pack(s, ac_at(buf, (first + j) * stride), count, dtype, out + j * bytes,
                      (int)bytes);
    return ac_sched_error(s);
}

int ac_alltoall_unpack_schedule(ac_sched *s, const char *in, MPI_Aint bytes, int first, int n,
                                void *buf, int count, MPI_Datatype dtype)
{
    MPI_Aint stride = (MPI_Aint)count * ac_extent(dtype);
    if (bytes == 0 || n == 0) return ac_sched_error(s);
    if ((MPI_Aint)n * bytes <= INT_MAX && (MPI_Aint)n * count <= INT_MAX) {
        ac_sched_unpack(s, in, (int)(n * bytes), ac_at(buf, first * stride), n * count, dtype);
        return ac_sched_error(s);
    }
    if (bytes > INT_MAX) return MPI_ERR_COUNT;
    for (int j = 0; j < n; j++)
        ac_sched_unpack(s, in + j * bytes, (int)bytes, ac_at(buf, (first + j) * stride), count,
                        dtype);
    return ac_sched_error(s);
}

int ac_alltoall_slot_type(MPI_Aint bytes, MPI_Datatype *type)
{
    int rc;
    *type = MPI_DATATYPE_NULL;
    if (bytes > INT_MAX) return MPI_ERR_COUNT;
    rc = PMPI_Type_contiguous((int)bytes, MPI_BYTE, type);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(type);
    return rc;
}

/* The uniform counts and displacements of an alltoall of scount and rcount elements a block on
 * `size` ranks (sdispls, rcounts and rdispls follow scounts in one allocation: free scounts). */
static int uniform_counts(int size, const void *sbuf, int scount, int rcount, int **scounts)
{
    if (sbuf == MPI_IN_PLACE) scount = rcount;
    if ((long long)(size - 1) * scount > INT_MAX || (long long)(size - 1) * rcount > INT_MAX)
        return MPI_ERR_COUNT; /* displacements are ints */
    int *counts = *scounts = malloc(sizeof(int) * 4 * (size_t)size);
    if (!counts) return MPI_ERR_NO_MEM;
    int *sdispls = counts + size, *rcounts = counts + 2 * size, *rdispls = counts + 3 * size;
    for (int i = 0; i < size; i++) {
        counts[i] = scount;
        sdispls[i] = i * scount;
        rcounts[i] = rcount;
        rdispls[i] = i * rcount;
    }
    return MPI_SUCCESS;
}

int ac_alltoall_by_alltoallv(ac_alltoallv_fn *engine, const void *sbuf, int scount,
                             MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                             MPI_Comm comm, const ac_params *p)
{
    int size, *c;
    PMPI_Comm_size(comm, &size);
    int rc = uniform_counts(size, sbuf, scount, rcount, &c);
    if (rc != MPI_SUCCESS) return rc;
    rc = engine(sbuf, c, c + size, stype, rbuf, c + 2 * size, c + 3 * size, rtype, comm, p);
    free(c);
    return rc;
}

int ac_alltoall_by_alltoallv_schedule(ac_alltoallv_sched_fn *engine, ac_sched *s,
                                      const void *sbuf, int scount, MPI_Datatype stype,
                                      void *rbuf, int rcount, MPI_Datatype rtype,
                                      const ac_params *p)
{
    int size = s->size, *c; /* the counts are read while building only */
    int rc = uniform_counts(size, sbuf, scount, rcount, &c);
    if (rc != MPI_SUCCESS) return rc;
    rc = engine(s, sbuf, c, c + size, stype, rbuf, c + 2 * size, c + 3 * size, rtype, p);
    free(c);
    return rc;
}
