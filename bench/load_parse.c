/*
 * load_parse.c - the CPU time of the steps of loading a configuration table or a history file
 * at MPI_Init, without MPI (bench/load_time.py writes the files and runs this beside its MPI
 * runs; docs/results/state-2026-11-25/loading.md). On a loaded machine a run's wall time also
 * counts the time other processes took the cores; this thread's CPU time does not.
 *
 *   load_parse table FILE                 ac_table_parse of the file's text (every rank's step)
 *   load_parse history FILE FINGERPRINT   ac_history_parse of the whole file (rank 0's step),
 *                                         then of the platform's section alone (every rank's)
 *
 * Prints one line: the seconds of each step (CPU time of this thread).
 */
#include "core/textfile.h"
#include "select/history.h"
#include "select/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int table(const char *text)
{
    char why[512] = "";
    double start = cpu_seconds();
    ac_table *t = ac_table_parse(text, ac_registry_fingerprint(), NULL, why, sizeof why);
    double parse = cpu_seconds() - start;
    if (!t) {
        fprintf(stderr, "load_parse: the table was refused: %s\n", why);
        return 1;
    }
    ac_table_free(t);
    printf("table parse %.3f s\n", parse);
    return 0;
}

static int history(const char *text, uint64_t fingerprint)
{
    char why[512] = "", *section = NULL;
    double start = cpu_seconds();
    int n = ac_history_parse(text, fingerprint, &section, why, sizeof why);
    double whole = cpu_seconds() - start;
    if (n < 0 || !section) {
        fprintf(stderr, "load_parse: %s\n", n < 0 ? why : "no section of that fingerprint");
        return 1;
    }
    /* the section alone, as every rank parses it (a header and platform line around it) */
    size_t len = strlen(section) + 64;
    char *alone = malloc(len), *again = NULL;
    if (!alone) return 1;
    snprintf(alone, len, "autocoll-history 1\nplatform %016llx x\n%s",
             (unsigned long long)fingerprint, section);
    start = cpu_seconds();
    ac_history_parse(alone, fingerprint, &again, why, sizeof why);
    double part = cpu_seconds() - start;
    printf("history whole-file parse %.3f s, section parse %.3f s\n", whole, part);
    free(again);
    free(alone);
    free(section);
    return 0;
}

int main(int argc, char **argv)
{
    int is_table = argc >= 3 && strcmp(argv[1], "table") == 0;
    if (!is_table && (argc < 4 || strcmp(argv[1], "history") != 0)) {
        fprintf(stderr, "usage: load_parse table FILE | load_parse history FILE FINGERPRINT\n");
        return 2;
    }
    char *text = ac_read_text_file(argv[2], 1L << 30);
    if (!text) {
        perror(argv[2]);
        return 1;
    }
    int rc = is_table ? table(text) : history(text, strtoull(argv[3], NULL, 16));
    free(text);
    return rc;
}
