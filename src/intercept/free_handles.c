/*
 * free_handles.c - MPI_Type_free and MPI_Op_free: a datatype or user-defined op that a request
 * of the layer still uses (a nonblocking or persistent collective the layer runs) is marked and
 * freed by the last such request when it ends (requests.c, ac_requests_keep_type and _op), as
 * MPI requires: an operation started with a datatype or op completes normally after the
 * application freed it. The handle is MPI_DATATYPE_NULL or MPI_OP_NULL on return either way.
 * Others go to the library at once. Fortran's MPI_TYPE_FREE and MPI_OP_FREE come here too
 * where the library's Fortran bindings would call PMPI_* (fortran_requests.c, fortran_f08.c).
 */
#include "intercept/requests.h"

int MPI_Type_free(MPI_Datatype *datatype)
{
    if (datatype && ac_requests_keep_type(*datatype)) {
        *datatype = MPI_DATATYPE_NULL;
        return MPI_SUCCESS;
    }
    return PMPI_Type_free(datatype);
}

int MPI_Op_free(MPI_Op *op)
{
    if (op && ac_requests_keep_op(*op)) {
        *op = MPI_OP_NULL;
        return MPI_SUCCESS;
    }
    return PMPI_Op_free(op);
}
