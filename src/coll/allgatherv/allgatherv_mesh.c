/*
 * allgatherv_mesh.c - 2D / 3D mesh all-gather (STAR-MPI section 3.1, "2D mesh", "3D mesh"):
 * the ranks form a logical d0 x d1 (x d2) mesh from ac_mesh_dims() (factors as close to
 * p^(1/dims) as possible), rank r = x0 + d0 * (x1 + d1 * x2). Phase k is a simple all-gather
 * among the d_k ranks that differ only in coordinate k, each forwarding every block it has
 * gathered so far; after phase k a rank holds the d0 * ... * dk consecutive ranks' blocks of
 * its sub-mesh. Runs of consecutive ranks' blocks travel as one message from a packed copy
 * (blocks.c), unpacked into rbuf at the end, so rtype's layout never matters.
 *
 * Cost: (d0 + d1 [+ d2] - dims) alpha + (p-1) n beta for n-byte blocks, plus packing every
 * block once. params->dims = 2 or 3 (NULL params or dims 0: 2; others: MPI_ERR_ARG).
 * Requirements: none; any process count. Factors of 1 (a prime p gives 1 x p) make a phase
 * empty, and the algorithm degenerates to "simple" along the remaining dimension.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

int ac_allgatherv_mesh(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                       const int *rcounts, const int *displs, MPI_Datatype rtype, MPI_Comm comm,
                       const ac_params *p)
{
    int rc, rank, size, ndims = p && p->dims ? p->dims : 2, dims[3], n = 0;
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow with MPICH */
    ac_allgatherv_packed pk;
    if (ndims != 2 && ndims != 3) return MPI_ERR_ARG;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    ac_mesh_dims(size, ndims, dims);
    rc = ac_allgatherv_pack_init(&pk, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm,
                                 0);
    if (rc != MPI_SUCCESS) return rc;
    int most = 1;
    for (int k = 0; k < ndims; k++)
        if (dims[k] > most) most = dims[k];
    reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)most);
    stats = malloc(sizeof(MPI_Status) * 2 * (size_t)most);
    if (!reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int k = 0, span = 1; k < ndims; span *= dims[k], k++) {
        int d = dims[k];
        int me = (rank / span) % d;                  /* my coordinate k */
        int base = rank / (span * d) * (span * d);   /* first rank of my phase-k sub-mesh */
        int mine = base + me * span;                 /* first rank of the run I hold */
        int bytes;
        char *addr;
        for (int i = 1; i < d; i++) {
            int t = (me - i + d) % d;
            rc = ac_allgatherv_pack_run(&pk, base + t * span, base + (t + 1) * span, &addr,
                                        &bytes);
            if (rc != MPI_SUCCESS) goto out;
            rc = PMPI_Irecv(addr, bytes, MPI_PACKED, rank + (t - me) * span, AC_TAG_DATA, comm,
                            &reqs[n]);
            if (rc != MPI_SUCCESS) goto out;
            n++;
        }
        rc = ac_allgatherv_pack_run(&pk, mine, mine + span, &addr, &bytes);
        if (rc != MPI_SUCCESS) goto out;
        for (int i = 1; i < d; i++) {
            int t = (me + i) % d;
            rc = PMPI_Isend(addr, bytes, MPI_PACKED, rank + (t - me) * span, AC_TAG_DATA, comm,
                            &reqs[n]);
            if (rc != MPI_SUCCESS) goto out;
            n++;
        }
        rc = PMPI_Waitall(n, reqs, stats);
        n = 0;
        if (rc != MPI_SUCCESS) goto out;
    }
    rc = ac_allgatherv_pack_finish(&pk, rbuf, rcounts, displs, rtype, comm);
out:
    if (n > 0) PMPI_Waitall(n, reqs, stats);
    free(reqs);
    free(stats);
    ac_allgatherv_pack_free(&pk);
    return rc;
}
