/*
 * init.c - ADCL_Init and ADCL_Finalize: the predefined function set, the function forced for
 * the run, and the report of the requests' outcomes.
 *
 * Forcing: AUTOCOLL_ADCL_FUNCTION=<name>, else ADCL's own file config.adcl in the working
 * directory with a line `ADCL_EMETHOD_SELECTION: <name>`, read by rank 0 of MPI_COMM_WORLD
 * and broadcast (ADCL_Init is collective over MPI_COMM_WORLD), so all ranks force alike.
 *
 * Report: each request's winner, whether it started warm from history, how many calls its
 * selection took and how many functions it measured, kept when it is freed (or at ADCL_Finalize
 * for a request still live); printed by rank 0 at ADCL_Finalize (or MPI_Finalize, when the
 * program does not call ADCL_Finalize) when AUTOCOLL_REPORT=stderr; with AUTOCOLL_REPORT=<path>
 * the JSON report lists them (report.c, member "adcl_requests").
 */
#include "adcl/adcl.h"
#include "core/config.h"
#include "core/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_FILE "config.adcl"
#define CONFIG_KEY "ADCL_EMETHOD_SELECTION:"
#define NAME_MAX_LEN 128

static int initialized, finalized;
static char forced[NAME_MAX_LEN];
static ac_adcl_outcome *outcomes;
static int noutcomes, printed; /* outcomes kept; those already printed */

int ac_adcl_initialized(void)
{
    return initialized && !finalized;
}

const char *ac_adcl_forced_name(void)
{
    return forced[0] ? forced : NULL;
}

/* The name of config.adcl's ADCL_EMETHOD_SELECTION line, into `name` ("" when none). */
static void read_config_file(char *name)
{
    char line[512];
    FILE *f = fopen(CONFIG_FILE, "r");
    name[0] = '\0';
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (strncmp(p, CONFIG_KEY, strlen(CONFIG_KEY)) != 0) continue;
        p += strlen(CONFIG_KEY);
        while (isspace((unsigned char)*p)) p++;
        size_t n = strcspn(p, " \t\r\n");
        if (n == 0 || n >= NAME_MAX_LEN) {
            ac_log_warn("%s: %s takes a function name; line ignored", CONFIG_FILE, CONFIG_KEY);
            continue;
        }
        memcpy(name, p, n);
        name[n] = '\0';
    }
    fclose(f);
}

int ADCL_Init(void)
{
    int mpi_initialized = 0, rank, rc;
    PMPI_Initialized(&mpi_initialized);
    if (!mpi_initialized)
        return ac_adcl_fail(ADCL_NOT_INITIALIZED, __func__, "call MPI_Init first");
    if (ac_adcl_initialized()) return ADCL_SUCCESS;
    rc = ac_adcl_neighborhood_build();
    if (rc != ADCL_SUCCESS)
        return ac_adcl_fail(rc, __func__, "the halo registry outgrew the predefined set");
    const char *env = ac_config_get("AUTOCOLL_ADCL_FUNCTION");
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (env && *env) {
        snprintf(forced, sizeof forced, "%s", env);
    } else {
        if (rank == 0) read_config_file(forced);
        PMPI_Bcast(forced, NAME_MAX_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    initialized = 1;
    finalized = 0;
    return ADCL_SUCCESS;
}

void ac_adcl_record(ADCL_Request req)
{
    if (req->recorded) return;
    req->recorded = 1;
    ac_adcl_outcome *grown = realloc(outcomes, (size_t)(noutcomes + 1) * sizeof *grown);
    if (!grown) return; /* the report misses one line */
    outcomes = grown;
    ac_adcl_outcome *o = &outcomes[noutcomes++];
    const ac_rounds *s = ac_rounds_of(req->search);
    o->id = req->id;
    snprintf(o->set, sizeof o->set, "%s", req->fnctset->name);
    snprintf(o->winner, sizeof o->winner, "%s", ac_adcl_current(req)->name);
    o->method = req->search_name;
    o->selection_calls = s->selection_calls;
    o->calls = s->calls;
    o->measured = s->measured;
    o->decided = s->decided;
    o->warm = s->warm;
}

const ac_adcl_outcome *ac_adcl_outcomes(int *count)
{
    *count = noutcomes;
    return outcomes;
}

/* The requests still live: their knowledge to history, their outcomes to the report. */
static void live_requests(void)
{
    int n;
    const void *const *live = ac_adcl_live_handles(AC_ADCL_KIND_REQUEST, &n);
    for (int i = 0; i < n; i++) {
        ac_adcl_history_save((ADCL_Request)live[i]);
        ac_adcl_record((ADCL_Request)live[i]);
    }
}

/* Prints the outcomes not printed yet (rank 0, AUTOCOLL_REPORT=stderr); the JSON report
 * (report.c) writes them all at MPI_Finalize. */
static void report(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && strcmp(ac_config_get("AUTOCOLL_REPORT"), "stderr") == 0)
        for (int i = printed; i < noutcomes; i++) {
            const ac_adcl_outcome *o = &outcomes[i];
            fprintf(stderr,
                    "autocoll: ADCL request %d (%s): %s %s, %s search, %d selection calls of "
                    "%d, %d functions measured, %s\n",
                    o->id, o->set, o->decided ? "winner" : "undecided, running", o->winner,
                    o->method, o->selection_calls, o->calls, o->measured,
                    o->warm ? "warm start (history)" : "cold start");
        }
    printed = noutcomes;
}

int ADCL_Finalize(void)
{
    if (!ac_adcl_initialized())
        return ac_adcl_fail(ADCL_NOT_INITIALIZED, __func__, "ADCL_Init has not run");
    live_requests();
    report();
    finalized = 1;
    initialized = 0;
    return ADCL_SUCCESS;
}

void ac_adcl_at_mpi_finalize(void)
{
    if (!ac_adcl_initialized()) return;
    live_requests();
    report();
    finalized = 1;
}
