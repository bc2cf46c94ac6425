/*
 * fortran_requests.c - the Fortran forms of the calls that complete requests (MPI_WAIT*,
 * MPI_TEST*, MPI_REQUEST_GET_STATUS, MPI_REQUEST_FREE, MPI_START*), of the blocking
 * point-to-point calls and probes that advance the layer's schedules (requests.c), and of
 * MPI_TYPE_FREE and MPI_OP_FREE, which must not free a handle a request of the layer still
 * holds (free_handles.c).
 *
 * A nonblocking or persistent collective the layer runs hands the application a request only
 * the layer's C wrappers of these calls know how to complete (requests.h): the library's own
 * would call it complete at once, before the collective has run, and the application would
 * read its buffers too early. Where a Fortran binding calls PMPI_* directly, these entry points
 * send it to the C wrappers instead:
 *  - Open MPI's mpif.h and `use mpi` bindings (libmpi_mpifh) call PMPI_* for all of them: the
 *    ompi_<name>_f entry points below (with their four aliases, fortran.h), Open MPI only;
 *  - the mpi_f08 bindings (MPICH's for all of them, Open MPI's for the MPI_Test* and
 *    MPI_Request_get_status): fortran_f08.c's mpi_<name>_f08_ entry points, through the
 *    ac_f_* functions here.
 * MPICH's mpif.h and `use mpi` bindings call MPI_*, caught by the C wrappers. Not built under
 * SimGrid (its programs are C).
 *
 * A Fortran request is an INTEGER handle (f2c, c2f: every handle is converted back after the
 * call, since the call frees completed requests); a Fortran status is MPI_STATUS_SIZE INTEGERs
 * (MPI_Status_c2f), or NULL here for MPI_STATUS_IGNORE (the callers map their sentinels);
 * indices are 1-based in Fortran.
 */
#include "intercept/fortran.h"

#include <mpi.h>
#include <stdlib.h>

#if defined(OPEN_MPI) || defined(MPICH_VERSION)

static void status_out(int rc, const MPI_Status *c, MPI_Fint *f)
{
    if (f && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)) PMPI_Status_c2f(c, f);
}

/* n C requests converted from Fortran's, with room for n statuses (always: the library is
 * passed a real array, never MPI_STATUSES_IGNORE, which MPICH defines as (MPI_Status *)1 and
 * GCC 12 at -O3 then warns about; Fortran's statuses are written only where it asked) and, where
 * `want_indices`, n indices: freed by release. 0 without memory. */
typedef struct {
    MPI_Request *c;
    MPI_Status *st;
    int *indices;
} c_requests;

static int acquire(c_requests *r, int n, const MPI_Fint *requests, int want_indices)
{
    size_t m = (size_t)(n > 0 ? n : 1);
    r->c = malloc(sizeof *r->c * m);
    r->st = malloc(sizeof *r->st * m);
    r->indices = want_indices ? malloc(sizeof *r->indices * m) : NULL;
    if (!r->c || !r->st || (want_indices && !r->indices)) {
        free(r->c);
        free(r->st);
        free(r->indices);
        return 0;
    }
    for (int i = 0; i < n; i++)
        r->c[i] = PMPI_Request_f2c(requests[i]);
    return 1;
}

/* The handles back into Fortran's array, then the arrays freed. */
static void release(c_requests *r, int n, MPI_Fint *requests)
{
    for (int i = 0; i < n; i++)
        requests[i] = PMPI_Request_c2f(r->c[i]);
    free(r->c);
    free(r->st);
    free(r->indices);
}

int ac_f_wait(MPI_Fint *request, MPI_Fint *status)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    MPI_Status st;
    int rc = MPI_Wait(&c, status ? &st : MPI_STATUS_IGNORE);
    *request = PMPI_Request_c2f(c);
    status_out(rc, &st, status);
    return rc;
}

int ac_f_test(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    MPI_Status st;
    int done = 0, rc = MPI_Test(&c, &done, status ? &st : MPI_STATUS_IGNORE);
    *request = PMPI_Request_c2f(c);
    *flag = ac_f_logical(done);
    if (done) status_out(rc, &st, status);
    return rc;
}

int ac_f_request_get_status(MPI_Fint request, MPI_Fint *flag, MPI_Fint *status)
{
    MPI_Status st;
    int done = 0,
        rc = MPI_Request_get_status(PMPI_Request_f2c(request), &done,
                                    status ? &st : MPI_STATUS_IGNORE);
    *flag = ac_f_logical(done);
    if (done) status_out(rc, &st, status);
    return rc;
}

int ac_f_request_free(MPI_Fint *request)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    int rc = MPI_Request_free(&c);
    *request = PMPI_Request_c2f(c);
    return rc;
}

int ac_f_start(MPI_Fint *request)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    return MPI_Start(&c);
}

int ac_f_startall(MPI_Fint count, MPI_Fint *requests)
{
    c_requests r;
    if (!acquire(&r, count, requests, 0)) return MPI_ERR_NO_MEM;
    int rc = MPI_Startall(count, r.c);
    release(&r, count, requests);
    return rc;
}

/* Statuses i = 0 .. n-1 of r into Fortran's array (NULL: MPI_STATUSES_IGNORE). */
static void statuses_out(int rc, const c_requests *r, int n, MPI_Fint *statuses)
{
    for (int i = 0; statuses && i < n; i++)
        status_out(rc, &r->st[i], statuses + (size_t)i * AC_F_STATUS_INTS);
}

int ac_f_waitall(MPI_Fint count, MPI_Fint *requests, MPI_Fint *statuses)
{
    c_requests r;
    if (!acquire(&r, count, requests, 0)) return MPI_ERR_NO_MEM;
    int rc = MPI_Waitall(count, r.c, r.st);
    statuses_out(rc, &r, count, statuses);
    release(&r, count, requests);
    return rc;
}

int ac_f_testall(MPI_Fint count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses)
{
    c_requests r;
    if (!acquire(&r, count, requests, 0)) return MPI_ERR_NO_MEM;
    int done = 0, rc = MPI_Testall(count, r.c, &done, r.st);
    *flag = ac_f_logical(done);
    if (done) statuses_out(rc, &r, count, statuses);
    release(&r, count, requests);
    return rc;
}

/* A C index as Fortran's: 1-based, MPI_UNDEFINED as it is. */
static MPI_Fint f_index(int index)
{
    return index == MPI_UNDEFINED ? MPI_UNDEFINED : index + 1;
}

int ac_f_waitany(MPI_Fint count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status)
{
    c_requests r;
    if (!acquire(&r, count, requests, 0)) return MPI_ERR_NO_MEM;
    MPI_Status st;
    int i = MPI_UNDEFINED, rc = MPI_Waitany(count, r.c, &i, status ? &st : MPI_STATUS_IGNORE);
    *index = f_index(i);
    if (i != MPI_UNDEFINED) status_out(rc, &st, status);
    release(&r, count, requests);
    return rc;
}

int ac_f_testany(MPI_Fint count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                 MPI_Fint *status)
{
    c_requests r;
    if (!acquire(&r, count, requests, 0)) return MPI_ERR_NO_MEM;
    MPI_Status st;
    int i = MPI_UNDEFINED, done = 0,
        rc = MPI_Testany(count, r.c, &i, &done, status ? &st : MPI_STATUS_IGNORE);
    *index = f_index(i);
    *flag = ac_f_logical(done);
    if (done && i != MPI_UNDEFINED) status_out(rc, &st, status);
    release(&r, count, requests);
    return rc;
}

/* MPI_Waitsome (wait 1) or MPI_Testsome (0). */
static int some(int wait, MPI_Fint incount, MPI_Fint *requests, MPI_Fint *outcount,
                MPI_Fint *indices, MPI_Fint *statuses)
{
    c_requests r;
    if (!acquire(&r, incount, requests, 1)) return MPI_ERR_NO_MEM;
    int out = MPI_UNDEFINED;
    int rc = wait ? MPI_Waitsome(incount, r.c, &out, r.indices, r.st)
                  : MPI_Testsome(incount, r.c, &out, r.indices, r.st);
    *outcount = out;
    if (out != MPI_UNDEFINED) {
        for (int i = 0; i < out; i++)
            indices[i] = f_index(r.indices[i]);
        statuses_out(rc, &r, out, statuses);
    }
    release(&r, incount, requests);
    return rc;
}

int ac_f_waitsome(MPI_Fint incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                  MPI_Fint *statuses)
{
    return some(1, incount, requests, outcount, indices, statuses);
}

int ac_f_testsome(MPI_Fint incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                  MPI_Fint *statuses)
{
    return some(0, incount, requests, outcount, indices, statuses);
}

int ac_f_probe(MPI_Fint source, MPI_Fint tag, MPI_Fint comm, MPI_Fint *status)
{
    MPI_Status st;
    int rc = MPI_Probe(source, tag, PMPI_Comm_f2c(comm), status ? &st : MPI_STATUS_IGNORE);
    status_out(rc, &st, status);
    return rc;
}

int ac_f_mprobe(MPI_Fint source, MPI_Fint tag, MPI_Fint comm, MPI_Fint *message, MPI_Fint *status)
{
    MPI_Status st;
    MPI_Message m = MPI_MESSAGE_NULL;
    int rc =
        MPI_Mprobe(source, tag, PMPI_Comm_f2c(comm), &m, status ? &st : MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) *message = PMPI_Message_c2f(m);
    status_out(rc, &st, status);
    return rc;
}

int ac_f_type_free(MPI_Fint *type)
{
    MPI_Datatype c = PMPI_Type_f2c(*type);
    int rc = MPI_Type_free(&c);
    if (rc == MPI_SUCCESS) *type = PMPI_Type_c2f(c);
    return rc;
}

int ac_f_op_free(MPI_Fint *op)
{
    MPI_Op c = PMPI_Op_f2c(*op);
    int rc = MPI_Op_free(&c);
    if (rc == MPI_SUCCESS) *op = PMPI_Op_c2f(c);
    return rc;
}

#endif /* OPEN_MPI || MPICH_VERSION */

#ifdef OPEN_MPI
/* Open MPI's mpif.h and `use mpi` entry points (the signatures of its ompi_<name>_f,
 * ompi/mpi/fortran/mpif-h/prototypes_mpi.h): the sentinels mapped, then the calls above. */

typedef void f_wait(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr);
f_wait ompi_wait_f;
void ompi_wait_f(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_wait(request, ac_f_status(status)));
}
F_ALIASES(f_wait, wait, WAIT)

typedef void f_test(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr);
f_test ompi_test_f;
void ompi_test_f(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_test(request, flag, ac_f_status(status)));
}
F_ALIASES(f_test, test, TEST)

f_test ompi_request_get_status_f;
void ompi_request_get_status_f(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_request_get_status(*request, flag, ac_f_status(status)));
}
F_ALIASES(f_test, request_get_status, REQUEST_GET_STATUS)

typedef void f_request(MPI_Fint *request, MPI_Fint *ierr);
f_request ompi_request_free_f;
void ompi_request_free_f(MPI_Fint *request, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_request_free(request));
}
F_ALIASES(f_request, request_free, REQUEST_FREE)

f_request ompi_start_f;
void ompi_start_f(MPI_Fint *request, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_start(request));
}
F_ALIASES(f_request, start, START)

typedef void f_startall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierr);
f_startall ompi_startall_f;
void ompi_startall_f(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_startall(*count, requests));
}
F_ALIASES(f_startall, startall, STARTALL)

typedef void f_waitall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr);
f_waitall ompi_waitall_f;
void ompi_waitall_f(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_waitall(*count, requests, ac_f_statuses(statuses)));
}
F_ALIASES(f_waitall, waitall, WAITALL)

typedef void f_testall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                       MPI_Fint *ierr);
f_testall ompi_testall_f;
void ompi_testall_f(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                    MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_testall(*count, requests, flag, ac_f_statuses(statuses)));
}
F_ALIASES(f_testall, testall, TESTALL)

typedef void f_waitany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                       MPI_Fint *ierr);
f_waitany ompi_waitany_f;
void ompi_waitany_f(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                    MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_waitany(*count, requests, index, ac_f_status(status)));
}
F_ALIASES(f_waitany, waitany, WAITANY)

typedef void f_testany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                       MPI_Fint *status, MPI_Fint *ierr);
f_testany ompi_testany_f;
void ompi_testany_f(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                    MPI_Fint *status, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_testany(*count, requests, index, flag, ac_f_status(status)));
}
F_ALIASES(f_testany, testany, TESTANY)

typedef void f_some(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                    MPI_Fint *statuses, MPI_Fint *ierr);
f_some ompi_waitsome_f;
void ompi_waitsome_f(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                     MPI_Fint *statuses, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr,
                  ac_f_waitsome(*incount, requests, outcount, indices, ac_f_statuses(statuses)));
}
F_ALIASES(f_some, waitsome, WAITSOME)

f_some ompi_testsome_f;
void ompi_testsome_f(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                     MPI_Fint *statuses, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr,
                  ac_f_testsome(*incount, requests, outcount, indices, ac_f_statuses(statuses)));
}
F_ALIASES(f_some, testsome, TESTSOME)

typedef void f_probe(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
                     MPI_Fint *ierr);
f_probe ompi_probe_f;
void ompi_probe_f(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
                  MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_probe(*source, *tag, *comm, ac_f_status(status)));
}
F_ALIASES(f_probe, probe, PROBE)

typedef void f_mprobe(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
                      MPI_Fint *status, MPI_Fint *ierr);
f_mprobe ompi_mprobe_f;
void ompi_mprobe_f(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
                   MPI_Fint *status, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_mprobe(*source, *tag, *comm, message, ac_f_status(status)));
}
F_ALIASES(f_mprobe, mprobe, MPROBE)

typedef void f_free(MPI_Fint *handle, MPI_Fint *ierr);
f_free ompi_type_free_f;
void ompi_type_free_f(MPI_Fint *type, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_type_free(type));
}
F_ALIASES(f_free, type_free, TYPE_FREE)

f_free ompi_op_free_f;
void ompi_op_free_f(MPI_Fint *op, MPI_Fint *ierr)
{
    ac_f_set_ierr(ierr, ac_f_op_free(op));
}
F_ALIASES(f_free, op_free, OP_FREE)

/* The blocking sends and receives (mpi_f08's reach these too, through its PLT): MPI_SEND,
 * MPI_SSEND and MPI_RSEND, each the C wrapper `fn` (requests.c). */
typedef void f_send(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *dest, MPI_Fint *tag,
                    MPI_Fint *comm, MPI_Fint *ierr);
#define SEND_ENTRY(name, NAME, fn)                                                             \
    f_send ompi_##name##_f;                                                                    \
    void ompi_##name##_f(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *dest,          \
                         MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr)                        \
    {                                                                                          \
        ac_f_set_ierr(ierr, fn(ac_f_buf(buf), *count, PMPI_Type_f2c(*dtype), *dest, *tag,      \
                               PMPI_Comm_f2c(*comm)));                                         \
    }                                                                                          \
    F_ALIASES(f_send, name, NAME)
SEND_ENTRY(send, SEND, MPI_Send)
SEND_ENTRY(ssend, SSEND, MPI_Ssend)
SEND_ENTRY(rsend, RSEND, MPI_Rsend)

typedef void f_recv(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *source, MPI_Fint *tag,
                    MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr);
f_recv ompi_recv_f;
void ompi_recv_f(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *source, MPI_Fint *tag,
                 MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Fint *fs = ac_f_status(status);
    MPI_Status st;
    int rc = MPI_Recv(ac_f_buf(buf), *count, PMPI_Type_f2c(*dtype), *source, *tag,
                      PMPI_Comm_f2c(*comm), fs ? &st : MPI_STATUS_IGNORE);
    status_out(rc, &st, fs);
    ac_f_set_ierr(ierr, rc);
}
F_ALIASES(f_recv, recv, RECV)

typedef void f_sendrecv(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, MPI_Fint *dest,
                        MPI_Fint *stag, char *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
                        MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *status,
                        MPI_Fint *ierr);
f_sendrecv ompi_sendrecv_f;
void ompi_sendrecv_f(char *sbuf, MPI_Fint *scount, MPI_Fint *stype, MPI_Fint *dest,
                     MPI_Fint *stag, char *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
                     MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *status,
                     MPI_Fint *ierr)
{
    MPI_Fint *fs = ac_f_status(status);
    MPI_Status st;
    int rc = MPI_Sendrecv(ac_f_buf(sbuf), *scount, PMPI_Type_f2c(*stype), *dest, *stag,
                          ac_f_buf(rbuf), *rcount, PMPI_Type_f2c(*rtype), *source, *rtag,
                          PMPI_Comm_f2c(*comm), fs ? &st : MPI_STATUS_IGNORE);
    status_out(rc, &st, fs);
    ac_f_set_ierr(ierr, rc);
}
F_ALIASES(f_sendrecv, sendrecv, SENDRECV)

typedef void f_sendrecv_replace(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *dest,
                                MPI_Fint *stag, MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm,
                                MPI_Fint *status, MPI_Fint *ierr);
f_sendrecv_replace ompi_sendrecv_replace_f;
void ompi_sendrecv_replace_f(char *buf, MPI_Fint *count, MPI_Fint *dtype, MPI_Fint *dest,
                             MPI_Fint *stag, MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm,
                             MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Fint *fs = ac_f_status(status);
    MPI_Status st;
    int rc = MPI_Sendrecv_replace(ac_f_buf(buf), *count, PMPI_Type_f2c(*dtype), *dest, *stag,
                                  *source, *rtag, PMPI_Comm_f2c(*comm),
                                  fs ? &st : MPI_STATUS_IGNORE);
    status_out(rc, &st, fs);
    ac_f_set_ierr(ierr, rc);
}
F_ALIASES(f_sendrecv_replace, sendrecv_replace, SENDRECV_REPLACE)
#endif /* OPEN_MPI */
