/*
 * poststart_pair.c - PostStartPut_pair and PostStartGet_pair: one-sided, one post/start epoch
 * per dimension with its two neighbours. ADCL Table 1: MPI_Put (MPI_Get) / MPI_Win_post/start.
 *
 * Each dimension's epoch synchronises with all neighbours (the group of poststart_aao), its
 * accesses go to the dimension's two. With a group of the dimension's two neighbours only, the
 * 8-rank exchange hung under MPICH 4.0.2 (ch4:ucx) in about half the runs (tests/mpi/
 * adcl_halo.c, 2-D 4x2 grid): a neighbour of the next dimension may post its next epoch while
 * this process still waits in MPI_Win_start for the current one's posts, and MPICH appears to
 * count that post for the current epoch, so the next MPI_Win_start waits for a post already
 * consumed. With the same group in every epoch, no process can post epoch k + 1 before all its
 * neighbours have started epoch k (its MPI_Win_wait needs their completions), so posts cannot
 * cross epochs. Open MPI 4.1.4 ran both forms.
 * init runs every dimension's epoch but the last one's completion, which wait runs.
 * Cost: ndims handshakes with all neighbours and 2*ndims accesses.
 */
#include "adcl/halo/halo.h"

int ac_halo_poststart_pair_init(ac_halo *h)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++) {
        rc = ac_halo_post_start(h, h->all_group);
        if (rc == MPI_SUCCESS) rc = ac_halo_access(h, d, 0);
        if (rc == MPI_SUCCESS) rc = ac_halo_access(h, d, 1);
        if (rc == MPI_SUCCESS && d < h->ndims - 1) rc = ac_halo_complete_wait(h);
    }
    return rc;
}

int ac_halo_poststart_pair_wait(ac_halo *h)
{
    return ac_halo_complete_wait(h);
}
