/*
 * init.c - MPI_Init, MPI_Init_thread and MPI_Finalize: set up the layer after the library,
 * report and release before it finalizes. The start and the end of a run, top-down: the
 * layer's own settings (core/state.c), selection (select.c: forced algorithms, the strategy,
 * history and table), and at the end the ADCL report of a program that did not call
 * ADCL_Finalize (adcl/init.c), the report (report.c), then selection's and the state's release.
 */
#include "adcl/adcl.h"
#include "intercept/intercept.h"
#include "report/report.h"

#include <mpi.h>

static void start(void)
{
    ac_strategies_declare(); /* their settings, before any is read */
    ac_state_init(1);
    if (!ac_g.enabled) return;
    ac_select_init();
    ac_adcl_history_declare(); /* the requests' lines of the history file */
    ac_select_load();          /* collective over MPI_COMM_WORLD */
}

ac_comm *ac_enter(MPI_Comm comm, ac_collective coll)
{
    /* MPI was initialised behind the layer's back (a library calling PMPI_Init): the settings
     * are read without the check that needs a collective. */
    if (!ac_g.initialized) {
        ac_strategies_declare();
        ac_state_init(0);
        if (ac_g.enabled) ac_select_init();
    }
    return ac_comm_enter(comm, coll);
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS && !ac_g.initialized) start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS && !ac_g.initialized) start();
    return rc;
}

int MPI_Finalize(void)
{
    ac_adcl_at_mpi_finalize(); /* the ADCL report, when the program skipped ADCL_Finalize */
    if (ac_g.initialized && !ac_g.finalized && ac_g.enabled) {
        ac_report_write();
        ac_select_finalize(); /* collective, like the load */
    }
    ac_state_finalize();
    return PMPI_Finalize();
}
