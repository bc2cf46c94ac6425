/*
 * load_parse.c - the CPU time of the steps of loading a configuration table or a history file
 * at MPI_Init, without MPI (bench/load_time.py writes the files and runs this beside its MPI
 * runs; docs/results/state-2026-11-25/loading.md). On a loaded machine a run's wall time also
 * counts the time other processes took the cores; this thread's CPU time does not.
 *
 *   load_parse table FILE                 ac_table_parse of the file's text (every rank's step)
 *   load_parse history FILE FINGERPRINT   ac_history_parse of the whole file (rank 0's step),
 *                                         its section's records packed as bytes (rank 0's) and
 *                                         unpacked (the other ranks'; context lines only)
 *
 * Prints one line: the seconds of each step (CPU time of this thread).
 */
#include "core/store.h"
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
    static const ac_store_kind context = {"context", 7, NULL}; /* a kind to hold the records */
    const ac_store_kind *kinds[] = {&context};
    char why[512] = "", *section = NULL, *bytes = NULL;
    double start = cpu_seconds();
    int n = ac_history_parse(text, fingerprint, &section, why, sizeof why);
    double whole = cpu_seconds() - start;
    if (n < 0 || !section) {
        fprintf(stderr, "load_parse: %s\n", n < 0 ? why : "no section of that fingerprint");
        return 1;
    }
    free(section);
    ac_store_records *read = NULL, *copy = NULL;
    if (ac_store_load(text, fingerprint, kinds, 1, &read, why, sizeof why) < 0 || !read) {
        fprintf(stderr, "load_parse: only context lines are timed: %s\n", why);
        return 1;
    }
    start = cpu_seconds();
    size_t len = ac_store_pack(read, kinds, 1, &bytes);
    double pack = cpu_seconds() - start;
    start = cpu_seconds();
    int rc = ac_store_unpack(bytes, len, kinds, 1, &copy);
    double unpack = cpu_seconds() - start;
    printf("history whole-file parse %.3f s, pack %.3f s (%.1f MB), unpack %.3f s\n", whole, pack,
           (double)len / 1e6, unpack);
    ac_store_records_free(read);
    ac_store_records_free(copy);
    free(bytes);
    return rc != 0;
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
