/*
 * log.c - stderr messages with the world rank, filtered by level.
 */
#include "core/log.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int level = 1;

void ac_log_set_level(int l)
{
    level = l;
}

static void emit(int at, const char *kind, const char *fmt, va_list ap)
{
    int initialized = 0, finalized = 0, rank = -1;
    char msg[1024];
    if (at > level) return;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (initialized && !finalized) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (rank >= 0)
        fprintf(stderr, "autocoll[%d]: %s%s\n", rank, kind, msg);
    else
        fprintf(stderr, "autocoll: %s%s\n", kind, msg);
}

void ac_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(0, "error: ", fmt, ap);
    va_end(ap);
}

void ac_log_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(1, "warning: ", fmt, ap);
    va_end(ap);
}

void ac_log_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(2, "", fmt, ap);
    va_end(ap);
}

void ac_log_abort(int rc)
{
    struct timespec moment = {0, 300 * 1000 * 1000}; /* for the launcher to read stderr */
    fflush(stderr);
    nanosleep(&moment, NULL);
    PMPI_Abort(MPI_COMM_WORLD, rc);
    abort(); /* MPI_Abort does not return */
}
