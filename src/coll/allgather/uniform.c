/*
 * uniform.c - the allgather algorithms are the allgatherv engines (src/coll/allgatherv/) with
 * uniform counts: rcounts[i] = rcount, displs[i] = i * rcount. Send and receive types may
 * differ (matching signatures); MPI_IN_PLACE means the same in both collectives (the rank's
 * block is already in rbuf at displs[rank]).
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

#include <limits.h>
#include <stdlib.h>

int ac_allgather_uniform(ac_allgatherv_fn *engine, const void *sbuf, int scount,
                         MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                         MPI_Comm comm, const ac_params *p)
{
    int rc, size;
    PMPI_Comm_size(comm, &size);
    if ((long long)rcount * (size - 1) > INT_MAX) return MPI_ERR_COUNT;
    int *counts = malloc(sizeof(int) * 2 * (size_t)size);
    if (!counts) return MPI_ERR_NO_MEM;
    int *displs = counts + size;
    for (int i = 0; i < size; i++) {
        counts[i] = rcount;
        displs[i] = i * rcount;
    }
    rc = engine(sbuf, scount, stype, rbuf, counts, displs, rtype, comm, p);
    free(counts);
    return rc;
}

int ac_allgather_uniform_schedule(ac_allgatherv_sched_fn *engine, ac_sched *s, const void *sbuf,
                                  int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                  MPI_Datatype rtype, const ac_params *p)
{
    int size = s->size;
    if ((long long)rcount * (size - 1) > INT_MAX) return MPI_ERR_COUNT;
    int *counts = malloc(sizeof(int) * 2 * (size_t)size); /* read while building only */
    if (!counts) return MPI_ERR_NO_MEM;
    int *displs = counts + size;
    for (int i = 0; i < size; i++) {
        counts[i] = rcount;
        displs[i] = i * rcount;
    }
    int rc = engine(s, sbuf, scount, stype, rbuf, counts, displs, rtype, p);
    free(counts);
    return rc;
}
