/*
 * report.c - per communicator and collective: calls run by the layer, calls passed through,
 * bytes, time and the algorithms used. Rank 0 of MPI_COMM_WORLD reports the communicators it
 * belongs to, as seen from rank 0.
 */
#include "report/report.h"
#include "core/config.h"
#include "core/log.h"
#include "core/state.h"
#include "select/select.h"
#include "select/strategy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* AUTOCOLL_REPORT's path with %r replaced by the world rank; 1 if it had %r. */
static int path_for_rank(const char *where, char *out, size_t len)
{
    const char *r = strstr(where, "%r");
    if (!r) {
        snprintf(out, len, "%s", where);
        return 0;
    }
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(out, len, "%.*s%d%s", (int)(r - where), where, rank, r + 2);
    return 1;
}

static int world_rank(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static void library_version(char *buf, size_t len)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    PMPI_Get_library_version(v, &n);
    v[n < (int)sizeof v ? n : (int)sizeof v - 1] = '\0';
    char *nl = strchr(v, '\n');
    if (nl) *nl = '\0';
    for (char *p = v; *p; p++)
        if (*p == '"' || *p == '\\' || (unsigned char)*p < 32) *p = ' ';
    snprintf(buf, len, "%.200s", v);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 32)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static int comm_used(const ac_comm *c)
{
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        if (c->stats[k].calls || c->stats[k].passthrough) return 1;
    return 0;
}

/* Communicators oldest first, in a new array of *n (free it). */
static ac_comm **comms_in_order(int *count)
{
    int n = 0;
    for (ac_comm *c = ac_g.comms; c; c = c->next)
        n++;
    ac_comm **out = malloc(sizeof(ac_comm *) * (size_t)(n ? n : 1));
    if (!out) return NULL;
    n = 0;
    for (ac_comm *c = ac_g.comms; c; c = c->next)
        out[n++] = c;
    for (int i = 0; i < n / 2; i++) {
        ac_comm *t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    *count = n;
    return out;
}

static void write_text(FILE *f, ac_comm **comms, int n)
{
    char version[256];
    int size;
    library_version(version, sizeof version);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    fprintf(f, "autocoll report: rank 0 of %d, %s\n", size, version);
    fprintf(f, "%-16s %5s %-21s %9s %9s %12s %11s  %s\n", "communicator", "size", "collective",
            "calls", "passthru", "bytes", "seconds", "algorithms (calls)");
    for (int i = 0; i < n; i++) {
        const ac_comm *c = comms[i];
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
            const ac_coll_stats *s = &c->stats[k];
            if (!s->calls && !s->passthrough) continue;
            fprintf(f, "%-16s %5d %-21s %9ld %9ld %12.0f %11.6f ", c->name, c->size,
                    ac_collective_name((ac_collective)k), s->calls, s->passthrough, s->bytes,
                    s->seconds);
            ac_algorithm_list r = ac_registry_for_size((ac_collective)k, c->size);
            for (int a = 0; a < r.count && s->alg_calls; a++)
                if (s->alg_calls[a])
                    fprintf(f, " %s (%ld)", r.algorithms[a]->name, s->alg_calls[a]);
            fputc('\n', f);
        }
    }
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        if (ac_g.passthrough[k])
            fprintf(f, "%-16s %5s %-21s %9d %9ld\n", "(invalid args)", "-",
                    ac_collective_name((ac_collective)k), 0, ac_g.passthrough[k]);
    if (!ac_g.strategy) return;
    /* Tuning contexts (STAR-MPI Tables 6 and 7): the decision length is the calls in
     * Measure_Select; O_MS^a and O_MA the layer's own time while deciding and after; O_MS^c
     * the cost of running slower candidates while measuring; saved = native's agreed mean
     * time per call x calls - (time in the algorithms + overheads), an estimate. Seconds are
     * rank 0's. */
    fprintf(f, "tuning contexts (%s strategy):\n", ac_g.strategy->name);
    fprintf(f, "  %-14s %-14s %9s %-26s %7s %-28s %7s %4s %9s %9s %9s %10s\n", "communicator",
            "collective", "bytes", "call site", "calls", "chosen", "decided", "sw", "O_MS^a",
            "O_MS^c", "O_MA", "saved");
    for (int i = 0; i < n; i++)
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
            ac_select_report_text(f, comms[i], (ac_collective)k);
}

/* Whether an earlier communicator than comms[i] has the same size and calls of collective k
 * (its row of the profile is written already). */
static int profile_seen(ac_comm **comms, int i, int k)
{
    for (int j = 0; j < i; j++)
        if (comms[j]->size == comms[i]->size && comms[j]->stats[k].sizes) return 1;
    return 0;
}

/* The collective profile (like IPM's): per collective and communicator size, over this rank's
 * communicators of that size, the calls and time per message-size bin (state.h). */
static void write_profile(FILE *f, ac_comm **comms, int n)
{
    int first_row = 1;
    fputs(",\n  \"profile\": [", f);
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        for (int i = 0; i < n; i++) {
            if (!comms[i]->stats[k].sizes || profile_seen(comms, i, k)) continue;
            ac_size_bin bins[AC_PROFILE_BINS] = {{0, 0.0}};
            int ncomms = 0;
            for (int j = i; j < n; j++) {
                const ac_coll_stats *s = &comms[j]->stats[k];
                if (comms[j]->size != comms[i]->size || !s->sizes) continue;
                ncomms++;
                for (int b = 0; b < AC_PROFILE_BINS; b++) {
                    bins[b].calls += s->sizes[b].calls;
                    bins[b].seconds += s->sizes[b].seconds;
                }
            }
            long calls = 0;
            double seconds = 0.0;
            for (int b = 0; b < AC_PROFILE_BINS; b++)
                calls += bins[b].calls, seconds += bins[b].seconds;
            fprintf(f,
                    "%s\n    {\"collective\": \"%s\", \"comm_size\": %d, \"communicators\": %d, "
                    "\"calls\": %ld, \"seconds\": %.9f, \"sizes\": [",
                    first_row ? "" : ",", ac_collective_name((ac_collective)k), comms[i]->size,
                    ncomms, calls, seconds);
            first_row = 0;
            for (int b = 0, first = 1; b < AC_PROFILE_BINS; b++) {
                if (!bins[b].calls) continue;
                unsigned long long lo = b ? 1ull << (b - 1) : 0, hi = b ? (1ull << b) - 1 : 0;
                char upper[24] = "null";
                if (b < AC_PROFILE_BINS - 1) snprintf(upper, sizeof upper, "%llu", hi);
                fprintf(f, "%s{\"bytes\": [%llu, %s], \"calls\": %ld, \"seconds\": %.9f}",
                        first ? "" : ", ", lo, upper, bins[b].calls, bins[b].seconds);
                first = 0;
            }
            fputs("]}", f);
        }
    fputs("\n  ]", f);
}

static void write_json(FILE *f, ac_comm **comms, int n)
{
    char version[256];
    int size;
    library_version(version, sizeof version);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    fprintf(f, "{\n  \"schema\": \"autocoll-report\",\n  \"version\": 1,\n");
    fprintf(f, "  \"mpi_library\": ");
    json_string(f, version);
    fprintf(f, ",\n  \"world_size\": %d,\n  \"rank\": %d,\n  \"communicators\": [", size,
            world_rank());
    int first_comm = 1;
    for (int i = 0; i < n; i++) {
        const ac_comm *c = comms[i];
        if (!comm_used(c)) continue;
        fprintf(f, "%s\n    {\"name\": ", first_comm ? "" : ",");
        first_comm = 0;
        json_string(f, c->name);
        fprintf(f, ", \"id\": %d, \"size\": %d, \"freed\": %s, \"collectives\": {", c->id, c->size,
                c->freed ? "true" : "false");
        int first_coll = 1;
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
            const ac_coll_stats *s = &c->stats[k];
            if (!s->calls && !s->passthrough) continue;
            fprintf(f,
                    "%s\n      \"%s\": {\"calls\": %ld, \"passthrough\": %ld, \"bytes\": %.0f, "
                    "\"seconds\": %.9f, \"algorithms\": {",
                    first_coll ? "" : ",", ac_collective_name((ac_collective)k), s->calls,
                    s->passthrough, s->bytes, s->seconds);
            first_coll = 0;
            ac_algorithm_list r = ac_registry_for_size((ac_collective)k, c->size);
            int first_alg = 1;
            for (int a = 0; a < r.count && s->alg_calls; a++) {
                if (!s->alg_calls[a]) continue;
                fprintf(f, "%s\"%s\": {\"calls\": %ld, \"seconds\": %.9f}", first_alg ? "" : ", ",
                        r.algorithms[a]->name, s->alg_calls[a], s->alg_seconds[a]);
                first_alg = 0;
            }
            fprintf(f, "}, \"untuned\": %ld, \"contexts\": ", c->untuned[k]);
            ac_select_report_contexts(f, c, (ac_collective)k);
            fprintf(f, ", \"buckets\": ");
            ac_select_report_buckets(f, c, (ac_collective)k);
            fprintf(f, "}");
        }
        fprintf(f, "\n    }}");
    }
    fprintf(f, "\n  ]");
    write_profile(f, comms, n);
    fprintf(f, ",\n  \"passthrough_invalid_arguments\": {");
    int first = 1;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
        if (!ac_g.passthrough[k]) continue;
        fprintf(f, "%s\"%s\": %ld", first ? "" : ", ", ac_collective_name((ac_collective)k),
                ac_g.passthrough[k]);
        first = 0;
    }
    fprintf(f, "}\n}\n");
}

void ac_report_write(void)
{
    const char *where = ac_config_get("AUTOCOLL_REPORT");
    char path[4096];
    int n;
    if (strcmp(where, "off") == 0) return;
    int per_rank = strcmp(where, "stderr") != 0 && path_for_rank(where, path, sizeof path);
    if (!per_rank && world_rank() != 0) return;
    ac_comm **comms = comms_in_order(&n);
    if (!comms) {
        ac_log_error("out of memory writing the report");
        return;
    }
    if (strcmp(where, "stderr") == 0) {
        write_text(stderr, comms, n);
        fflush(stderr);
        free(comms);
        return;
    }
    /* JSON: write a temporary file beside the target, then rename, so a reader never sees a
     * half-written report. */
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        ac_log_error("cannot write the report to %s: %s", path, strerror(errno));
        free(comms);
        return;
    }
    write_json(f, comms, n);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        ac_log_error("cannot write the report to %s: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(comms);
}
