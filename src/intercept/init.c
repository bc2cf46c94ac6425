/*
 * init.c - MPI_Init, MPI_Init_thread and MPI_Finalize: set up the layer after the library,
 * report and release before it finalizes. The start and the end of a run, top-down: the
 * layer's own settings (core/state.c), selection (select.c: forced algorithms, the strategy,
 * history and table), and at the end the ADCL report of a program that did not call
 * ADCL_Finalize (adcl/init.c), the report (report.c), then selection's and the state's release.
 */
#include "adcl/adcl.h"
#include "intercept/intercept.h"
#include "intercept/requests.h"
#include "report/report.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A build for one MPI library preloaded into a program of another would read that library's
 * handles as its own and crash (an MPICH build under Open MPI died with a segmentation fault).
 * MPI_Get_library_version may be called before MPI_Init and takes no handle, so it is asked
 * first; a mismatch stops the process with a message that says what to do. The buffer is larger
 * than either library's MPI_MAX_LIBRARY_VERSION_STRING (Open MPI 256, MPICH 8192): the running
 * library writes up to its own. */
static void refuse_another_library(void)
{
#if defined(OMPI_MAJOR_VERSION) || defined(MPICH_VERSION)
    static char version[16384];
    int len = 0;
    if (PMPI_Get_library_version(version, &len) != MPI_SUCCESS) return;
    version[sizeof version - 1] = '\0';
    /* a library is told by what its version says; one that says neither (a vendor's build of
     * either) is let through rather than refused wrongly */
    int open_mpi = strstr(version, "Open MPI") != NULL;
    int mpich = !open_mpi && (strstr(version, "MPICH") || strstr(version, "Intel(R) MPI") ||
                              strstr(version, "MVAPICH"));
#if defined(OMPI_MAJOR_VERSION)
    const char *built = "Open MPI";
    int same = !mpich;
#else
    const char *built = "the MPICH family (MPICH, Intel MPI, Cray MPICH, MVAPICH)";
    int same = !open_mpi;
    (void)mpich;
#endif
    if (same) return;
    char *eol = strchr(version, '\n');
    if (eol) *eol = '\0';
    fprintf(stderr,
            "autocoll: error: this libautocoll was built for %s, but the program runs \"%.120s\"; "
            "preload or link the autocoll built for the program's MPI (docs/guide.md, "
            "\"Install\"). Stopping before MPI_Init.\n",
            built, version);
    fflush(stderr);
    _exit(EXIT_FAILURE);
#endif
}

static void start(void)
{
    ac_strategies_declare(); /* their settings, before any is read */
    ac_state_init(1);
    if (!ac_g.enabled) return;
    ac_select_init();
    ac_adcl_history_declare(); /* the requests' lines of the history file */
    ac_select_load();          /* collective over MPI_COMM_WORLD */
    ac_comm_make(MPI_COMM_WORLD); /* for its nonblocking collectives (requests.h) */
    if (ac_select_may_run_nonblocking() && ac_requests_allowed())
        ac_select_comm_made(ac_comm_find(MPI_COMM_WORLD)); /* its node layout, where needed */
}

ac_comm *ac_enter(MPI_Comm comm, ac_collective coll)
{
    /* MPI was initialised behind the layer's back (a library calling PMPI_Init): the settings
     * are read without the check that needs a collective. */
    if (!ac_g.initialized) {
        refuse_another_library();
        ac_strategies_declare();
        ac_state_init(0);
        if (ac_g.enabled) ac_select_init();
    }
    ac_requests_progress(); /* the nonblocking collectives the layer runs advance here too */
    ac_comm *c = ac_comm_enter(comm, coll);
    if (c && ac_requests_active) ac_requests_settle(c->pcomm);
    return c;
}

int MPI_Init(int *argc, char ***argv)
{
    refuse_another_library();
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS && !ac_g.initialized) start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    refuse_another_library();
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS && !ac_g.initialized) start();
    return rc;
}

int MPI_Finalize(void)
{
    ac_adcl_at_mpi_finalize(); /* the ADCL report, when the program skipped ADCL_Finalize */
    ac_requests_finalize();    /* persistent requests the program did not free */
    if (ac_g.initialized && !ac_g.finalized && ac_g.enabled) {
        ac_report_write();
        ac_select_finalize(); /* collective, like the load */
    }
    ac_state_finalize();
    return PMPI_Finalize();
}
