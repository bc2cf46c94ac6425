/*
 * adcl.h - the objects behind the handles of include/ADCL.h and what the files of src/adcl/
 * share: checking handles, reporting invalid arguments, the run's ADCL state.
 *
 * Handles are pointers to the structs below. Every live handle is kept in a table of its kind
 * (handles.c), so that a NULL, freed or foreign handle is recognised without dereferencing it:
 * ADCL functions return an error code with one line on stderr, never crash.
 */
#ifndef AUTOCOLL_ADCL_H
#define AUTOCOLL_ADCL_H

#include "ADCL.h"
#include "adcl/halo/halo.h"
#include "coll/coll.h"
#include "coll/cost.h"
#include "core/store.h"
#include "select/rounds.h"
#include "select/select.h"

#include <mpi.h>

/* The kinds of handle, for the table of live handles. */
typedef enum ac_adcl_kind {
    AC_ADCL_KIND_VMAP,
    AC_ADCL_KIND_VECTOR,
    AC_ADCL_KIND_TOPOLOGY,
    AC_ADCL_KIND_ATTRIBUTE,
    AC_ADCL_KIND_ATTRSET,
    AC_ADCL_KIND_FUNCTION,
    AC_ADCL_KIND_FNCTSET,
    AC_ADCL_KIND_REQUEST,
    AC_ADCL_KIND_TIMER,
    AC_ADCL_KINDS
} ac_adcl_kind;

struct ADCL_vmap_s {
    int type;        /* ADCL_VECTOR_HALO, ... */
    int hwidth;      /* halo: cells on each side */
    int size;        /* list: entries of rcnts and displ */
    int *rcnts, *displ;
    MPI_Op op;       /* allreduce */
    int scnt, rcnt;  /* alltoall */
};

struct ADCL_vector_s {
    int ndims;            /* spatial dimensions */
    int dims[AC_HALO_MAXDIMS];
    int nc;               /* components per point (trailing dimension), 0: none */
    ADCL_Vmap vmap;
    MPI_Datatype dat;
    void *base;           /* the contiguous elements */
    void **pointers;      /* allocated vectors: the pointer arrays (one block), else NULL */
    int allocated;        /* 1: ADCL_Vector_allocate_generic (freed by ADCL_Vector_free) */
};

struct ADCL_topology_s {
    MPI_Comm comm;        /* the user's communicator (not duplicated: requests duplicate it) */
    int ndims;
    int nbr[AC_HALO_MAXDIMS][2]; /* left and right neighbour in each dimension */
    int coords[AC_HALO_MAXDIMS];
    int have_coords;
    int cartesian;        /* from ADCL_Topology_create: comm has the Cartesian topology */
};

struct ADCL_attribute_s {
    char *name;
    int n;
    int *values;
    char **value_names;
};

struct ADCL_attrset_s {
    int n;
    ADCL_Attribute *attrs;
};

struct ADCL_function_s {
    char *name;
    ADCL_work_fnct_ptr *fnct;    /* a user function, or NULL */
    const ac_halo_impl *halo;    /* a predefined neighbourhood implementation, or NULL */
    const ac_algorithm *coll;    /* a predefined collective set's algorithm, or NULL */
    ADCL_Attrset attrset;        /* may be ADCL_ATTRSET_NULL */
    int *attrvals;               /* one value per attribute of attrset */
};

struct ADCL_fnctset_s {
    char *name;
    int n;
    ADCL_Function *fncts;
    int predefined;              /* ADCL_FNCTSET_NEIGHBORHOOD: built by ADCL_Init */
    int collective_set;          /* ADCL_FNCTSET_ALLREDUCE, ...: a request makes its own set */
    ac_collective collective;    /* ... of this collective's algorithms (collective.c) */
    int owned;                   /* a request's own set, released with it */
};

struct ADCL_request_s {
    ADCL_Vector vec;
    ADCL_Topology topo;
    ADCL_Fnctset fnctset;
    MPI_Comm comm;               /* private duplicate of the topology's communicator */
    int rank, size;
    ac_halo halo;                /* the neighbourhood exchange's plan (predefined set only) */
    const ac_strategy *strategy; /* its search: a rounds strategy (select/rounds.h) */
    void *search;                /* its state: which function runs (ac_rounds_of(search)->current),
                                  * what selection measured */
    const char *search_name;     /* AUTOCOLL_ADCL_SEARCH's keyword, or "forced" */
    ac_context_facts facts;      /* what the search was created from (again for a warm start) */
    int *applicable;             /* facts.applicable: the functions that may run */
    double *features;            /* facts.features (model search of the neighbourhood set) */
    double prior[AC_COST_PARAMS]; /* facts.prior (model search) */
    const int **values;          /* the functions' attribute values, for the search */
    ADCL_Timer timer;            /* the timer the request is attached to, or NULL */
    double t_init;               /* start of the running call (ADCL_Request_init) */
    int in_progress;             /* between ADCL_Request_init and ADCL_Request_wait */
    int id;                      /* creation number in this process, for the report */
    char *history_key;           /* its key in the history file (history.c), or NULL: off */
    int history_started;         /* the key is complete and was looked up (first call) */
    int history_saved;           /* its knowledge was handed to the history file */
    int recorded;                /* its outcome is in the report (freed, or ADCL_Finalize) */
};

struct ADCL_timer_s {
    int n;
    ADCL_Request *reqs;
    double t_start;
    int running;
};

/* The table of live handles. */
int ac_adcl_live_add(ac_adcl_kind kind, const void *handle);
int ac_adcl_live(ac_adcl_kind kind, const void *handle);
void ac_adcl_live_remove(ac_adcl_kind kind, const void *handle);
/* The live handles of a kind (*n of them; valid until the next add or remove). */
const void *const *ac_adcl_live_handles(ac_adcl_kind kind, int *n);

/* Report an invalid argument or a failure of `function` on stderr (one line) and return code. */
int ac_adcl_fail(int code, const char *function, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether ADCL_Init ran (and ADCL_Finalize did not). */
int ac_adcl_initialized(void);

/* The function forced by AUTOCOLL_ADCL_FUNCTION or config.adcl (agreed at ADCL_Init), or NULL. */
const char *ac_adcl_forced_name(void);

/* A finished request's outcome, kept for the reports (init.c): when it is freed, or at
 * ADCL_Finalize (MPI_Finalize) while still live; once. */
typedef struct ac_adcl_outcome {
    int id;                       /* creation number in this process */
    char set[128], winner[128];   /* function set; the function running at the end */
    const char *method;           /* brute_force, attribute, factorial or forced */
    int selection_calls, calls;   /* calls measured before the decision; calls in all */
    int measured, decided;        /* functions measured; whether the search ended */
    int warm;                     /* started warm from history */
} ac_adcl_outcome;
void ac_adcl_record(ADCL_Request req);
/* The outcomes recorded so far in this process, in order of release. */
const ac_adcl_outcome *ac_adcl_outcomes(int *count);

/* The predefined neighbourhood set (fnctset.c): built by the first ADCL_Init, then kept. */
int ac_adcl_neighborhood_build(void);

/* One measurement of the request's current function (a call, or its timer's interval), to the
 * search; the decision is logged at AUTOCOLL_VERBOSE=2 (request.c). An MPI error code. */
int ac_adcl_request_measured(ADCL_Request req, double seconds);

/* The function running now (the search's current one). */
ADCL_Function ac_adcl_current(ADCL_Request r);

/* The predefined collective sets (collective.c): whether set is one; the request's own set of
 * the applicable algorithms (r->fnctset replaced; an ADCL error code and *why on failure); one
 * call; the release of a request's own set. */
int ac_adcl_collective_set(ADCL_Fnctset set);
int ac_adcl_collective_prepare(ADCL_Request r, ADCL_Fnctset set, const char **why);
int ac_adcl_collective_run(ADCL_Request r, const ac_algorithm *alg);
void ac_adcl_collective_release(ADCL_Fnctset set);

/* History warm start (history.c): the request's key, agreed over its communicator at creation
 * (collective; an MPI error code); before its first call, the key completed and looked up (a
 * warm start when known); its knowledge kept for the file (rank 0 of its communicator, once:
 * when freed, or at ADCL_Finalize / MPI_Finalize for the requests still live). */
int ac_adcl_history_prepare(ADCL_Request r);
void ac_adcl_history_start(ADCL_Request r);
void ac_adcl_history_save(ADCL_Request r);
/* A request's kind of record in the history file, declared to history (select/history.h) at
 * MPI_Init, before the file is loaded, so that the file's request lines are read and kept. */
extern const ac_store_kind ac_adcl_history_kind;
void ac_adcl_history_declare(void);

/* At MPI_Finalize: the report of a run whose program did not call ADCL_Finalize. */
void ac_adcl_at_mpi_finalize(void);

#endif
