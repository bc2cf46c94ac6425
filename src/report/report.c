/*
 * report.c - per communicator and collective: calls run by the layer, calls passed through,
 * bytes, time and the algorithms used. Rank 0 of MPI_COMM_WORLD reports the communicators it
 * belongs to, as seen from rank 0.
 */
#include "report/report.h"
#include "core/seen.h"
#include "adcl/adcl.h"
#include "core/config.h"
#include "core/json_writer.h"
#include "core/log.h"
#include "core/safefile.h"
#include "core/state.h"
#include "report/site_name.h"
#include "select/select.h"

#include <errno.h>
#include <limits.h>
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

/* The estimate of time saved against native (the report's "saved"): native's agreed mean time
 * per call x calls, minus the time in the algorithms and the overheads; 0 while native's time
 * is unknown. */
static int context_saved(const ac_context_view *v, double *saved)
{
    *saved = v->summary.native_seconds * (double)v->calls - v->seconds - v->overhead[0] -
             v->overhead[1];
    return v->summary.native_seconds >= 0.0;
}

/* The tuning contexts' table: the numbers first, then the chosen algorithm (its column as wide
 * as the longest name), then the call site, last and whole. Titles in plain words (docs/guide.md,
 * "The report"); "s" marks seconds, rank 0's. */
typedef struct context_widths {
    int communicator, collective, chosen;
} context_widths;

static const char *chosen_name(const ac_context_view *v)
{
    return v->summary.chosen >= 0 ? v->candidates[v->summary.chosen]->name : "-";
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

static void measure_context(context_widths *w, const ac_comm *c, ac_collective coll,
                            const struct ac_context *x)
{
    ac_context_view v;
    ac_select_view_context(x, &v);
    w->communicator = max_int(w->communicator, (int)strlen(c->name));
    w->collective = max_int(w->collective, (int)strlen(ac_collective_name(coll)));
    w->chosen = max_int(w->chosen, (int)strlen(chosen_name(&v)));
}

/* AUTOCOLL_VERBOSE=2: the report's text tables with every column (the per-algorithm calls, the
 * overheads); otherwise the lines keep within about 120 columns (docs/guide.md, "The report"). */
static int verbose_report(void)
{
    return ac_config_int("AUTOCOLL_VERBOSE") >= 2;
}

/* A context's "learning calls" and "saved vs native" cells, "-" where unknown. */
static void decided_and_saved(const ac_context_view *v, char decided[32], char saved[32])
{
    double estimate;
    strcpy(decided, "-");
    strcpy(saved, "-");
    if (v->summary.decision_calls >= 0)
        snprintf(decided, 32, "%ld", v->summary.decision_calls);
    if (context_saved(v, &estimate)) snprintf(saved, 32, "%+.6f", estimate);
}

/* A context in the compact table: a call site that would take the line past 120 columns goes
 * on a line of its own below it. */
static void write_context_compact(FILE *f, const context_widths *w, const ac_comm *c,
                                  ac_collective coll, const ac_context_view *v, const char *site)
{
    char decided[32], saved[32];
    decided_and_saved(v, decided, saved);
    int len = fprintf(f, "  %-*s %-*s %9zu %9ld %10s %11s  %-*s", w->communicator, c->name,
                      w->collective, ac_collective_name(coll), v->bytes, v->calls, decided, saved,
                      w->chosen, chosen_name(v));
    if (len + 2 + (int)strlen(site) <= 120)
        fprintf(f, "  %s\n", site);
    else
        fprintf(f, "\n      at %s\n", site);
}

static void write_context_text(FILE *f, const context_widths *w, const ac_comm *c,
                               ac_collective coll, const struct ac_context *x)
{
    ac_context_view v;
    ac_site_name site;
    char decided[32], o_ms_c[32] = "-", saved[32];
    ac_select_view_context(x, &v);
    ac_site_name_of(v.site_key, &site);
    if (!verbose_report()) {
        write_context_compact(f, w, c, coll, &v, site.text);
        return;
    }
    decided_and_saved(&v, decided, saved);
    if (v.summary.o_ms_c >= 0.0) snprintf(o_ms_c, sizeof o_ms_c, "%.6f", v.summary.o_ms_c);
    fprintf(f, "  %-*s %-*s %9zu %9ld %14s %8d %19.6f %23s %16.6f %17s  %-*s  %s\n",
            w->communicator, c->name, w->collective, ac_collective_name(coll), v.bytes, v.calls,
            decided, v.summary.switches, v.overhead[1], o_ms_c, v.overhead[0], saved, w->chosen,
            chosen_name(&v), site.text);
}

/* STAR-MPI's Tables 6 and 7 in words: learning calls = the decision length (Measure_Select,
 * race's first race); learning overhead = O_MS^a, the layer's own time while deciding; cost of
 * trying slower = O_MS^c, running slower candidates while measuring, relative to the chosen
 * one; overhead after = O_MA; saved vs native = native's agreed mean time per call x calls -
 * (time in the algorithms + overheads), an estimate, "-" where the strategy never measured
 * native. */
static void write_contexts_text(FILE *f, ac_comm **comms, int n)
{
    context_widths w = {(int)strlen("communicator"), (int)strlen("collective"),
                        (int)strlen("chosen")};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
            for (const struct ac_context *x = ac_select_next_context(comms[i], k, NULL); x;
                 x = ac_select_next_context(comms[i], k, x))
                measure_context(&w, comms[i], (ac_collective)k, x);
    fprintf(f, "tuning contexts (%s strategy; seconds are rank 0's; call sites %s):\n",
            ac_select_strategy_name(),
            strcmp(ac_lines_library(), "none") ? "by line, else module+offset"
                                               : "as module+offset (no libdw)");
    if (verbose_report())
        fprintf(f, "  %-*s %-*s %9s %9s %14s %8s %19s %23s %16s %17s  %-*s  %s\n",
                w.communicator, "communicator", w.collective, "collective", "bytes", "calls",
                "learning calls", "switches", "learning overhead s", "cost of trying slower s",
                "overhead after s", "saved vs native s", w.chosen, "chosen", "call site");
    else /* the overheads and switches in the JSON and at AUTOCOLL_VERBOSE=2 */
        fprintf(f, "  %-*s %-*s %9s %9s %10s %11s  %-*s  %s\n", w.communicator, "communicator",
                w.collective, "collective", "bytes", "calls", "decided at", "saved s",
                w.chosen, "chosen", "call site");
    for (int i = 0; i < n; i++)
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
            for (const struct ac_context *x = ac_select_next_context(comms[i], k, NULL); x;
                 x = ac_select_next_context(comms[i], k, x))
                write_context_text(f, &w, comms[i], (ac_collective)k, x);
    ac_site_names_done();
}

/* The run in one line (the report's answer to "did it help?"): the calls the layer ran and
 * their time, the calls passed through, and under a strategy that tunes, its contexts' estimate
 * of time saved or lost against native, learning included, and the calls left untuned. */
typedef struct run_summary {
    long calls, passthrough, untuned, single, contexts, unmeasured;
    long undecided, undecided_calls, one_call; /* contexts still deciding at the end (their
                                                * calls), contexts of a single call */
    double seconds, saved;
} run_summary;

/* Calls of the collectives the layer counts without running them (core/seen.h). */
static long seen_calls(void)
{
    long n = 0;
    for (int k = 0; k < AC_SEEN_KINDS; k++)
        n += ac_seen_calls((ac_seen_kind)k);
    return n;
}

static void summarize(ac_comm **comms, int n, run_summary *out)
{
    memset(out, 0, sizeof *out);
    out->passthrough = seen_calls();
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        out->passthrough += ac_g.passthrough[k];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
            const ac_coll_stats *s = &comms[i]->stats[k];
            out->calls += s->calls;
            out->passthrough += s->passthrough;
            out->untuned += s->untuned;
            out->single += s->single;
            out->seconds += s->seconds;
            for (const struct ac_context *x = ac_select_next_context(comms[i], k, NULL); x;
                 x = ac_select_next_context(comms[i], k, x)) {
                ac_context_view v;
                double saved;
                ac_select_view_context(x, &v);
                out->contexts++;
                if (v.summary.deciding) {
                    out->undecided++;
                    out->undecided_calls += v.calls;
                }
                out->one_call += v.calls <= 1;
                if (context_saved(&v, &saved))
                    out->saved += saved;
                else
                    out->unmeasured++;
            }
        }
}

/* The calls passed through by reason, as "3 arguments, 2 intercommunicator" (none: ""). */
static void pass_reasons_text(char *out, size_t len)
{
    size_t used = 0;
    long seen = seen_calls();
    out[0] = '\0';
    if (seen) used += (size_t)snprintf(out, len, "%ld not run by the layer", seen);
    for (int r = 0; r < AC_PASS_REASONS && used < len; r++)
        if (ac_g.passthrough_why[r])
            used += (size_t)snprintf(out + used, len - used, "%s%ld %s", used ? ", " : "",
                                     ac_g.passthrough_why[r],
                                     ac_pass_reason_name((ac_pass_reason)r));
}

static void write_summary_text(FILE *f, const run_summary *s)
{
    char why[256];
    pass_reasons_text(why, sizeof why);
    fprintf(f, "summary: %ld calls run by the layer, %.6f s (rank 0's), %ld passed through%s%s%s\n",
            s->calls, s->seconds, s->passthrough, why[0] ? " (" : "", why, why[0] ? ")" : "");
    if (!ac_select_uses_contexts()) {
        fprintf(f, "  strategy %s: nothing tuned, nothing to compare\n",
                ac_select_strategy_name());
        return;
    }
    fprintf(f, "  %ld tuning contexts", s->contexts);
    if (s->contexts > s->unmeasured)
        fprintf(f, ": %s %.6f s against native (an estimate, learning included)",
                s->saved >= 0.0 ? "saved" : "lost", s->saved >= 0.0 ? s->saved : -s->saved);
    fprintf(f, "\n  %ld never measured native; %ld still deciding at the end (%ld calls: too "
               "few to decide); %ld of one call\n",
            s->unmeasured, s->undecided, s->undecided_calls, s->one_call);
    fprintf(f, "  untuned: %ld calls beyond AUTOCOLL_MAX_SITES or _SIZES, %ld on one-rank "
               "communicators\n",
            s->untuned, s->single);
}

static void write_summary_json(ac_json_writer *w, const run_summary *s)
{
    ac_json_object_begin(w, "summary");
    ac_json_integer_value(w, "calls", s->calls);
    ac_json_real(w, "seconds", s->seconds);
    ac_json_integer_value(w, "passthrough", s->passthrough);
    ac_json_string(w, "strategy", ac_select_strategy_name());
    ac_json_boolean(w, "tunes", ac_select_uses_contexts());
    ac_json_integer_value(w, "contexts", s->contexts);
    ac_json_integer_value(w, "contexts_without_native", s->unmeasured);
    if (s->contexts > s->unmeasured)
        ac_json_real(w, "saved_seconds", s->saved);
    else
        ac_json_null(w, "saved_seconds");
    ac_json_integer_value(w, "untuned", s->untuned);
    ac_json_integer_value(w, "untuned_one_rank", s->single);
    ac_json_integer_value(w, "contexts_deciding", s->undecided);
    ac_json_integer_value(w, "calls_deciding", s->undecided_calls);
    ac_json_integer_value(w, "contexts_of_one_call", s->one_call);
    ac_json_object_begin(w, "passthrough_reasons");
    for (int r = 0; r < AC_PASS_REASONS; r++)
        ac_json_integer_value(w, ac_pass_reason_name((ac_pass_reason)r), ac_g.passthrough_why[r]);
    ac_json_integer_value(w, "not_run", seen_calls());
    ac_json_object_end(w);
    ac_json_object_end(w);
}

/* The collectives seen and passed through without being run (core/seen.h): one line of at
 * most 120 columns a few at a time, "seen, not run by the layer: MPI_Iallreduce 5 (40 B), ...",
 * with the reasons of calls the layer could have run ("MPI_Ibcast 3 (24 B) [selection 3]"). */
static void write_seen_text(FILE *f)
{
    int col = 0;
    for (int k = 0; k < AC_SEEN_KINDS; k++) {
        long calls = ac_seen_calls((ac_seen_kind)k);
        if (!calls) continue;
        char item[192], b[32] = "", why[128] = "";
        double bytes = ac_seen_total_bytes((ac_seen_kind)k);
        if (bytes >= 0.0) snprintf(b, sizeof b, " (%.0f B)", bytes);
        for (int y = AC_SEEN_WHY_NOT_RUN + 1, at = 0; y < AC_SEEN_WHYS; y++) {
            long n = ac_seen_why_calls((ac_seen_kind)k, (ac_seen_why)y);
            if (n && at < (int)sizeof why)
                at += snprintf(why + at, sizeof why - (size_t)at, "%s%s %ld", at ? ", " : " [",
                               ac_seen_why_name((ac_seen_why)y), n);
            if (y + 1 == AC_SEEN_WHYS && at && at < (int)sizeof why - 1) strcat(why, "]");
        }
        int len = snprintf(item, sizeof item, "%s %ld%s%s", ac_seen_name((ac_seen_kind)k), calls,
                           b, why);
        if (col == 0 || col + len + 2 > 120) {
            fprintf(f, "%s%s", col ? "\n" : "", col ? "  " : "seen, not run by the layer: ");
            col = col ? 2 : 29;
        } else {
            fputs(", ", f);
            col += 2;
        }
        fputs(item, f);
        col += len;
    }
    if (col) fputc('\n', f);
}

/* The nonblocking and persistent calls the layer ran (core/seen.h: ac_seen_run), each in lines
 * of at most 120 columns: calls, bytes and the calls by each algorithm; then the time from the
 * start to the completion the application saw, and of it the time spent waiting in MPI_Wait and
 * MPI_Test calls (rank 0's). */
static void write_run_text(FILE *f)
{
    for (int k = 0; k < AC_SEEN_KINDS; k++) {
        long calls = ac_seen_run_calls((ac_seen_kind)k), by[AC_SEEN_RUN_ALGORITHMS];
        if (!calls) continue;
        const char *name = ac_seen_name((ac_seen_kind)k), *algs[AC_SEEN_RUN_ALGORITHMS];
        const char *unit = strstr(name, "_init") ? "start" : "call"; /* persistent: per start */
        int n = ac_seen_run_algorithms((ac_seen_kind)k, algs, by);
        int col = fprintf(f, "run by the layer: %s %ld %ss (%.0f B) by", name, calls, unit,
                          ac_seen_run_bytes((ac_seen_kind)k));
        for (int i = 0; i < n; i++) {
            char item[96];
            int len =
                snprintf(item, sizeof item, " %s %ld%s", algs[i], by[i], i < n - 1 ? "," : "");
            if (col + len > 120) {
                fputs("\n  ", f);
                col = 2;
            }
            fputs(item, f);
            col += len;
        }
        fprintf(f,
                "\n  %.2f us a %s from start to completion, %.2f us of it in MPI calls on it\n",
                1e6 * ac_seen_run_seconds((ac_seen_kind)k) / (double)calls, unit,
                1e6 * ac_seen_run_waited((ac_seen_kind)k) / (double)calls);
    }
}

static void write_run_json(ac_json_writer *w)
{
    ac_json_object_begin(w, "nonblocking_run");
    for (int k = 0; k < AC_SEEN_KINDS; k++) {
        long calls = ac_seen_run_calls((ac_seen_kind)k), by[AC_SEEN_RUN_ALGORITHMS];
        if (!calls) continue;
        const char *algs[AC_SEEN_RUN_ALGORITHMS];
        int n = ac_seen_run_algorithms((ac_seen_kind)k, algs, by);
        ac_json_object_begin(w, ac_seen_name((ac_seen_kind)k));
        ac_json_integer_value(w, "calls", calls);
        ac_json_object_begin(w, "algorithms");
        for (int i = 0; i < n; i++)
            ac_json_integer_value(w, algs[i], by[i]);
        ac_json_object_end(w);
        ac_json_real(w, "bytes", ac_seen_run_bytes((ac_seen_kind)k));
        ac_json_real(w, "seconds", ac_seen_run_seconds((ac_seen_kind)k));
        ac_json_real(w, "waited_seconds", ac_seen_run_waited((ac_seen_kind)k));
        ac_json_object_end(w);
    }
    ac_json_object_end(w);
}

static void write_seen_json(ac_json_writer *w)
{
    ac_json_object_begin(w, "seen");
    for (int k = 0; k < AC_SEEN_KINDS; k++) {
        long calls = ac_seen_calls((ac_seen_kind)k);
        if (!calls) continue;
        double bytes = ac_seen_total_bytes((ac_seen_kind)k);
        ac_json_object_begin(w, ac_seen_name((ac_seen_kind)k));
        ac_json_integer_value(w, "calls", calls);
        if (bytes >= 0.0)
            ac_json_real(w, "bytes", bytes);
        else
            ac_json_null(w, "bytes");
        ac_json_object_begin(w, "why"); /* the calls passed for each reason (core/seen.h) */
        for (int y = 0; y < AC_SEEN_WHYS; y++) {
            long n = ac_seen_why_calls((ac_seen_kind)k, (ac_seen_why)y);
            if (n) ac_json_integer_value(w, ac_seen_why_name((ac_seen_why)y), n);
        }
        ac_json_object_end(w);
        ac_json_object_end(w);
    }
    ac_json_object_end(w);
}

static void write_text(FILE *f, ac_comm **comms, int n)
{
    char version[256];
    int size;
    library_version(version, sizeof version);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    fprintf(f, "autocoll report: rank 0 of %d, %s\n", size, version);
    int verbose = verbose_report();
    fprintf(f, "%-16s %5s %-21s %9s %9s %12s %11s  %s\n", "communicator", "size", "collective",
            "calls", "passthru", "bytes", "seconds",
            verbose ? "algorithms (calls)" : "algorithms");
    for (int i = 0; i < n; i++) {
        const ac_comm *c = comms[i];
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
            const ac_coll_stats *s = &c->stats[k];
            if (!s->calls && !s->passthrough) continue;
            fprintf(f, "%-16s %5d %-21s %9ld %9ld %12.0f %11.6f ", c->name, c->size,
                    ac_collective_name((ac_collective)k), s->calls, s->passthrough, s->bytes,
                    s->seconds);
            ac_algorithm_list r = ac_registry_for_size((ac_collective)k, c->size);
            int used = 0;
            for (int a = 0; a < r.count && s->alg_calls; a++)
                if (s->alg_calls[a] && verbose)
                    fprintf(f, " %s (%ld)", r.algorithms[a]->name, s->alg_calls[a]);
                else
                    used += s->alg_calls[a] > 0;
            if (!verbose) fprintf(f, " %10d", used); /* which: the JSON, AUTOCOLL_VERBOSE=2 */
            fputc('\n', f);
        }
    }
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        if (ac_g.passthrough[k])
            fprintf(f, "%-16s %5s %-21s %9d %9ld\n", "(invalid args)", "-",
                    ac_collective_name((ac_collective)k), 0, ac_g.passthrough[k]);
    write_seen_text(f);
    write_run_text(f);
    if (ac_select_uses_contexts()) write_contexts_text(f, comms, n);
    run_summary sum;
    summarize(comms, n, &sum);
    write_summary_text(f, &sum);
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
static void write_profile(ac_json_writer *w, ac_comm **comms, int n)
{
    ac_json_array_begin(w, "profile");
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        for (int i = 0; i < n; i++) {
            if (!comms[i]->stats[k].sizes || profile_seen(comms, i, k)) continue;
            ac_size_bin bins[AC_PROFILE_BINS] = {{0, 0.0}};
            long ncomms = 0;
            for (int j = i; j < n; j++) {
                const ac_coll_stats *s = &comms[j]->stats[k];
                if (comms[j]->size != comms[i]->size || !s->sizes) continue;
                ncomms += comms[j]->folded ? (int)comms[j]->folded : 1;
                for (int b = 0; b < AC_PROFILE_BINS; b++) {
                    bins[b].calls += s->sizes[b].calls;
                    bins[b].seconds += s->sizes[b].seconds;
                }
            }
            long calls = 0;
            double seconds = 0.0;
            for (int b = 0; b < AC_PROFILE_BINS; b++)
                calls += bins[b].calls, seconds += bins[b].seconds;
            ac_json_object_begin(w, NULL);
            ac_json_string(w, "collective", ac_collective_name((ac_collective)k));
            ac_json_integer_value(w, "comm_size", comms[i]->size);
            ac_json_integer_value(w, "communicators", ncomms);
            ac_json_integer_value(w, "calls", calls);
            ac_json_real(w, "seconds", seconds);
            ac_json_array_begin(w, "sizes");
            for (int b = 0; b < AC_PROFILE_BINS; b++) {
                if (!bins[b].calls) continue;
                ac_json_object_begin(w, NULL);
                ac_json_array_begin(w, "bytes");
                ac_json_integer_value(w, NULL, b ? 1ll << (b - 1) : 0);
                if (b < AC_PROFILE_BINS - 1)
                    ac_json_integer_value(w, NULL, b ? (1ll << b) - 1 : 0);
                else
                    ac_json_null(w, NULL);
                ac_json_array_end(w);
                ac_json_integer_value(w, "calls", bins[b].calls);
                ac_json_real(w, "seconds", bins[b].seconds);
                ac_json_object_end(w);
            }
            ac_json_array_end(w);
            ac_json_object_end(w);
        }
    ac_json_array_end(w);
}

/* "site_name" (the text report's name of the site) and "call_site": where this rank made the
 * site key (null for the site-less context): file and line (null without a line table),
 * function (null without a symbol), module (its file as the process maps it, else as the
 * dynamic loader named it) and offset. */
static void write_call_site_json(ac_json_writer *w, uint64_t key)
{
    ac_site_name site;
    ac_site_name_of(key, &site);
    ac_json_string(w, "site_name", site.text);
    if (!site.known) {
        ac_json_null(w, "call_site");
        return;
    }
    ac_json_object_begin(w, "call_site");
    if (site.source.line > 0) {
        ac_json_string(w, "file", site.source.file);
        ac_json_integer_value(w, "line", site.source.line);
    } else {
        ac_json_null(w, "file");
        ac_json_null(w, "line");
    }
    if (site.source.function[0])
        ac_json_string(w, "function", site.source.function);
    else
        ac_json_null(w, "function");
    ac_json_string(w, "module", site.source.module[0] ? site.source.module : site.origin.path);
    ac_json_integer_value(w, "offset", (long long)site.origin.offset);
    ac_json_object_end(w);
}

/* One tuning context's object. */
static void write_context_json(ac_json_writer *w, const struct ac_context *x)
{
    ac_context_view v;
    double saved;
    ac_select_view_context(x, &v);
    ac_json_object_begin(w, NULL);
    ac_json_integer_value(w, "bytes", (long long)v.bytes);
    ac_json_integer_value(w, "count", v.count);
    ac_json_string(w, "site", v.site);
    write_call_site_json(w, v.site_key);
    ac_json_integer_value(w, "calls", v.calls);
    ac_json_integer_value(w, "candidates", v.ncandidates);
    ac_json_real(w, "seconds", v.seconds);
    ac_json_object_begin(w, "overhead");
    ac_json_real(w, "deciding_seconds", v.overhead[1]);
    ac_json_integer_value(w, "deciding_calls", v.overhead_calls[1]);
    ac_json_real(w, "settled_seconds", v.overhead[0]);
    ac_json_integer_value(w, "settled_calls", v.overhead_calls[0]);
    ac_json_object_end(w);
    if (context_saved(&v, &saved)) {
        ac_json_real(w, "native_mean_seconds", v.summary.native_seconds);
        ac_json_real(w, "saved_seconds", saved);
    }
    ac_json_object_begin(w, "runs");
    for (int i = 0; i < v.ncandidates; i++)
        if (v.candidate_calls[i])
            ac_json_integer_value(w, v.candidates[i]->name, v.candidate_calls[i]);
    ac_json_object_end(w);
    ac_json_string(w, "strategy", v.strategy);
    ac_json_string(w, "stage", v.summary.stage);
    ac_json_string(w, "chosen",
                   v.summary.chosen >= 0 ? v.candidates[v.summary.chosen]->name : "");
    ac_json_integer_value(w, "switches", v.summary.switches);
    ac_json_boolean(w, "warm", v.warm_from != NULL);
    if (v.warm_from) ac_json_string(w, "warm_from", v.warm_from);
    if (v.summary.decision_calls >= 0)
        ac_json_integer_value(w, "decision_calls", v.summary.decision_calls);
    ac_select_describe_strategy(x, w);
    ac_json_object_end(w);
}

/* The tuning contexts of c for coll, as an array. */
static void write_contexts_json(ac_json_writer *w, const char *key, const ac_comm *c,
                                ac_collective coll)
{
    ac_json_array_begin(w, key);
    for (const struct ac_context *x = ac_select_next_context(c, coll, NULL); x;
         x = ac_select_next_context(c, coll, x))
        write_context_json(w, x);
    ac_json_array_end(w);
}

void ac_report_contexts_json(FILE *f, const ac_comm *c, ac_collective coll)
{
    ac_json_writer w;
    ac_json_writer_init(&w, f);
    write_contexts_json(&w, NULL, c, coll);
    ac_site_names_done();
}

static void write_bucket_json(ac_json_writer *w, const struct ac_bucket *b)
{
    ac_bucket_view v;
    ac_select_view_bucket(b, &v);
    ac_json_object_begin(w, NULL);
    ac_json_integer_value(w, "bytes", (long long)v.bytes);
    ac_json_integer_value(w, "count", v.count);
    ac_json_integer_value(w, "calls", v.calls);
    ac_json_string(w, "site_mode", v.site_mode);
    ac_json_integer_value(w, "site_agreements", v.site_agreements);
    ac_json_integer_value(w, "site_period", v.site_period);
    ac_json_integer_value(w, "site_relearns", v.site_relearns);
    ac_json_integer_value(w, "site_changed_at", v.site_changed_at);
    ac_json_string(w, "siteless_reason", v.siteless_reason);
    ac_json_object_end(w);
}

/* One collective of one communicator. */
static void write_collective_json(ac_json_writer *w, const ac_comm *c, ac_collective k)
{
    const ac_coll_stats *s = &c->stats[k];
    ac_json_object_begin(w, ac_collective_name(k));
    ac_json_integer_value(w, "calls", s->calls);
    ac_json_integer_value(w, "passthrough", s->passthrough);
    ac_json_integer_value(w, "bytes", (long long)s->bytes);
    ac_json_real(w, "seconds", s->seconds);
    ac_json_object_begin(w, "algorithms");
    ac_algorithm_list r = ac_registry_for_size(k, c->size);
    for (int a = 0; a < r.count && s->alg_calls; a++) {
        if (!s->alg_calls[a]) continue;
        ac_json_object_begin(w, r.algorithms[a]->name);
        ac_json_integer_value(w, "calls", s->alg_calls[a]);
        ac_json_real(w, "seconds", s->alg_seconds[a]);
        ac_json_object_end(w);
    }
    ac_json_object_end(w);
    ac_json_integer_value(w, "untuned", s->untuned);
    write_contexts_json(w, "contexts", c, k);
    ac_json_array_begin(w, "buckets");
    for (const struct ac_bucket *b = ac_select_next_bucket(c, k, NULL); b;
         b = ac_select_next_bucket(c, k, b))
        write_bucket_json(w, b);
    ac_json_array_end(w);
    ac_json_object_end(w);
}

/* The ADCL requests this process released (src/adcl/init.c): winner, search, calls. */
static void write_adcl_json(ac_json_writer *w)
{
    int n;
    const ac_adcl_outcome *o = ac_adcl_outcomes(&n);
    ac_json_array_begin(w, "adcl_requests");
    for (int i = 0; i < n; i++) {
        ac_json_object_begin(w, NULL);
        ac_json_integer_value(w, "id", o[i].id);
        ac_json_string(w, "function_set", o[i].set);
        ac_json_string(w, "search", o[i].method);
        ac_json_boolean(w, "decided", o[i].decided);
        ac_json_string(w, "function", o[i].winner); /* the winner when decided */
        ac_json_integer_value(w, "selection_calls", o[i].selection_calls);
        ac_json_integer_value(w, "calls", o[i].calls);
        ac_json_integer_value(w, "functions_measured", o[i].measured);
        ac_json_boolean(w, "warm", o[i].warm);
        ac_json_object_end(w);
    }
    ac_json_array_end(w);
}

static void write_json(FILE *f, ac_comm **comms, int n)
{
    char version[256];
    int size;
    ac_json_writer w;
    library_version(version, sizeof version);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    ac_json_writer_init(&w, f);
    ac_json_object_begin(&w, NULL);
    ac_json_string(&w, "schema", "autocoll-report");
    ac_json_integer_value(&w, "version", 1);
    ac_json_string(&w, "mpi_library", version);
    ac_json_integer_value(&w, "world_size", size);
    ac_json_integer_value(&w, "rank", world_rank());
    ac_json_string(&w, "site_lines", ac_lines_library());
    ac_json_array_begin(&w, "communicators");
    for (int i = 0; i < n; i++) {
        const ac_comm *c = comms[i];
        if (!comm_used(c)) continue;
        ac_json_object_begin(&w, NULL);
        ac_json_string(&w, "name", c->name);
        ac_json_integer_value(&w, "id", c->id);
        ac_json_integer_value(&w, "size", c->size);
        ac_json_boolean(&w, "freed", c->freed);
        if (c->folded) ac_json_integer_value(&w, "communicators", c->folded);
        if (c->layout.nodes > 0) { /* known where selection needed it */
            ac_json_object_begin(&w, "nodes");
            ac_json_integer_value(&w, "nodes", c->layout.nodes);
            ac_json_integer_value(&w, "ranks_min", c->layout.ppn_min);
            ac_json_integer_value(&w, "ranks_max", c->layout.ppn_max);
            ac_json_boolean(&w, "blocks", c->layout.blocks);
            ac_json_object_end(&w);
        }
        ac_json_object_begin(&w, "collectives");
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
            if (c->stats[k].calls || c->stats[k].passthrough)
                write_collective_json(&w, c, (ac_collective)k);
        ac_json_object_end(&w);
        ac_json_object_end(&w);
    }
    ac_json_array_end(&w);
    run_summary sum;
    summarize(comms, n, &sum);
    write_summary_json(&w, &sum);
    write_profile(&w, comms, n);
    write_seen_json(&w);
    write_run_json(&w);
    write_adcl_json(&w);
    ac_json_object_begin(&w, "passthrough_invalid_arguments");
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        if (ac_g.passthrough[k])
            ac_json_integer_value(&w, ac_collective_name((ac_collective)k), ac_g.passthrough[k]);
    ac_json_object_end(&w);
    ac_json_object_end(&w);
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
    /* JSON: written to a temporary file beside the target, then renamed over it, so that a
     * reader never sees a half-written report (core/safefile.h: made exclusively, never through
     * a planted link; a symbolic link's target replaced; mode and group kept). */
    ac_file_writer out;
    char why[PATH_MAX + 256] = "";
    if (ac_file_begin(&out, path, why, sizeof why) != 0) {
        ac_log_error("cannot write the report to %s: %s", path, why);
        free(comms);
        return;
    }
    write_json(out.f, comms, n);
    ac_site_names_done();
    if (ac_file_commit(&out, why, sizeof why) != 0)
        ac_log_error("cannot write the report to %s: %s", path, why);
    free(comms);
}
