/*
 * ialltoall.c - MPI_Ialltoall and MPI_Alltoall_init, and their large-count forms: the layer's
 * request where it runs them (ac_request_blocks, blocks_request.c), otherwise passed to the
 * library, counted as seen.
 */
#include "intercept/intercept.h"
#include "intercept/requests.h"

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (ac_request_blocks(AC_ALLTOALL, AC_SEEN_IALLTOALL, 0, sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                request);
}

#if MPI_VERSION >= 4 && !AUTOCOLL_SIMULATED
int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Request *request)
{
    int rc;
    if (ac_request_blocks(AC_ALLTOALL, AC_SEEN_IALLTOALL_C, 0, sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                  request);
}

int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
             MPI_Request *request)
{
    int rc;
    if (ac_request_blocks(AC_ALLTOALL, AC_SEEN_ALLTOALL_INIT, 1, sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     info, request);
}

int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Info info, MPI_Request *request)
{
    int rc;
    if (ac_request_blocks(AC_ALLTOALL, AC_SEEN_ALLTOALL_INIT_C, 1, sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm, request, &rc))
        return rc;
    return PMPI_Alltoall_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                       comm, info, request);
}
#endif
