/*
 * config.c - the table of every AUTOCOLL_* setting with its default. `autocoll-info` prints it;
 * nothing else keeps a list of settings.
 */
#include "core/config.h"
#include "core/log.h"

#include <stdlib.h>
#include <string.h>

#define FORCE_VALUES "auto, or an algorithm name from autocoll-info"

static const ac_setting settings[] = {
    {"AUTOCOLL", "on", "on | off", "off makes the layer a pure pass-through to the MPI library"},
    {"AUTOCOLL_REPORT", "off", "off | stderr | <path>",
     "end-of-run report: text on stderr from rank 0, or JSON written by rank 0 to <path>"},
    {"AUTOCOLL_VERBOSE", "1", "0 | 1 | 2",
     "0 errors only, 1 warnings (default), 2 also information about every decision"},
    {"AUTOCOLL_STRATEGY", "native", "native | star | lottery | race | table",
     "how unforced calls choose: native (the library's own), star (STAR-MPI's run-time "
     "tuning: Measure_Select, then Monitor_Adapt), lottery (the Berkeley lottery scheduler), "
     "race (autocoll's own: candidates race in rounds, the clearly slower drop out, medians "
     "compared with medians) or table (the rules of AUTOCOLL_TABLE, no run-time tuning)"},
    {"AUTOCOLL_TABLE", "", "<path>",
     "a configuration table from `autocoll tune` (docs/table.md): the rules of the table "
     "strategy; with another strategy its measured cells seed contexts history does not know; "
     "empty: none"},
    {"AUTOCOLL_HISTORY", "auto", "auto | off | <path>",
     "learned state kept between runs (docs/history.md): read at MPI_Init, merged into the "
     "file at MPI_Finalize, per platform; auto: $XDG_CACHE_HOME/autocoll/history or "
     "~/.cache/autocoll/history, used when AUTOCOLL_STRATEGY is not native (a path: always)"},
    {"AUTOCOLL_MAX_SITES", "8", "n >= 0",
     "call sites tuned apart per communicator (N); further sites run native; 0: one site-less "
     "context per message size (no call-site agreements)"},
    {"AUTOCOLL_MAX_SIZES", "8", "n >= 1",
     "tuning contexts (message sizes) per call site and collective (X); further sizes run "
     "native"},
    {"AUTOCOLL_STAR_ITER", "10", "n >= 1", "star: measurements of each candidate (ITER)"},
    {"AUTOCOLL_STAR_EPSILON", "0.10", "x >= 0",
     "star: tolerance over the second best before Monitor_Adapt switches (epsilon)"},
    {"AUTOCOLL_STAR_DELTA_MAX", "64", "n >= 2",
     "star: upper bound of the monitoring factor delta (window = delta * ITER calls)"},
    {"AUTOCOLL_STAR_GROUPING", "on", "on | off",
     "star: enhanced AEOS, measure one algorithm per group first (STAR-MPI section 3.3)"},
    {"AUTOCOLL_STAR_RECHECK", "2000", "n >= 0",
     "star: calls before an algorithm left for a degradation is measured again (doubling while "
     "it stays slower, up to 16x); 0: never (STAR-MPI as published)"},
    {"AUTOCOLL_LOTTERY_ALPHA", "0.8", "0 < x < 1",
     "lottery: share of the tickets of the candidate with the smallest average time (alpha)"},
    {"AUTOCOLL_LOTTERY_SPREAD", "uniform", "uniform | inverse",
     "lottery: how the other 1 - alpha of the tickets are spread over the other candidates: "
     "equally, or in inverse proportion to their average time"},
    {"AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "2", "x >= 0 | inf",
     "lottery: explore only candidates whose average is within this many standard deviations "
     "of the best's; inf: every candidate"},
    {"AUTOCOLL_LOTTERY_EMA", "0.25", "0 < x <= 1",
     "lottery: weight of a new agreed time in a candidate's exponential average"},
    {"AUTOCOLL_LOTTERY_TTL", "20", "n >= 1",
     "lottery: longest time-to-live; a draw with a share s of the tickets holds ceil(s * n) "
     "calls"},
    {"AUTOCOLL_LOTTERY_WINDOW", "64", "n >= 1",
     "lottery: calls between two agreements of the timings (one allreduce each)"},
    {"AUTOCOLL_LOTTERY_INIT", "1", "n >= 0",
     "lottery: calls of each candidate, in order, before the first draw; 0: the paper's cold "
     "start (unmeasured candidates are found by exploration)"},
    {"AUTOCOLL_LOTTERY_RECHECK", "1000", "n >= 0",
     "lottery: calls after which a candidate excluded by EXPLORE_SIGMAS may be explored again "
     "(doubling while it stays excluded, up to 16x); 0: never"},
    {"AUTOCOLL_LOTTERY_DRAW", "seed", "seed | broadcast",
     "lottery: how ranks draw alike: the same generator on every rank (no communication), or "
     "rank 0's draw carried by one agreement per time-to-live (the paper's broadcast)"},
    {"AUTOCOLL_LOTTERY_SEED", "1", "integer", "lottery: seed of the generator of the draws"},
    {"AUTOCOLL_RACE_SAMPLES", "3", "1 <= n <= 50", "race: calls of each candidate per round"},
    {"AUTOCOLL_RACE_ROUNDS", "4", "1 <= n <= 20",
     "race: rounds at most; the best median after the last one wins"},
    {"AUTOCOLL_RACE_MARGIN", "0.5", "x >= 0",
     "race: after round 1 a candidate slower than (1 + margin) x the best median drops out; "
     "the margin halves every round"},
    {"AUTOCOLL_RACE_EPSILON", "0.05", "x >= 0",
     "race: the chosen one is degraded when its recent median exceeds (1 + epsilon) x the "
     "runner-up's; two degraded windows in a row start a new race"},
    {"AUTOCOLL_RACE_WINDOW_MAX", "1024", "n >= 16",
     "race: longest monitoring window (windows start at 16 calls and double)"},
    {"AUTOCOLL_RACE_REFRESH", "4096", "n >= 0",
     "race: settled calls before every candidate races again (doubles while the choice "
     "holds); 0: never"},
    {"AUTOCOLL_RACE_GROUPING", "on", "on | off",
     "race: round 1 runs one algorithm per group, and every group whose representative stays "
     "in the race joins round 2"},
    {"AUTOCOLL_RACE_FINAL", "0", "0 <= n <= 100",
     "race: when a race's best is not native, it, the runner-up and native run n fresh calls "
     "each, and the best median of those wins; 0: no final"},
    {"AUTOCOLL_ALLGATHER", "auto", FORCE_VALUES, "force the MPI_Allgather algorithm"},
    {"AUTOCOLL_ALLGATHERV", "auto", FORCE_VALUES, "force the MPI_Allgatherv algorithm"},
    {"AUTOCOLL_ALLREDUCE", "auto", FORCE_VALUES, "force the MPI_Allreduce algorithm"},
    {"AUTOCOLL_ALLTOALL", "auto", FORCE_VALUES, "force the MPI_Alltoall algorithm"},
    {"AUTOCOLL_ALLTOALLV", "auto", FORCE_VALUES, "force the MPI_Alltoallv algorithm"},
    {"AUTOCOLL_BARRIER", "auto", FORCE_VALUES, "force the MPI_Barrier algorithm"},
    {"AUTOCOLL_BCAST", "auto", FORCE_VALUES, "force the MPI_Bcast algorithm"},
    {"AUTOCOLL_GATHER", "auto", FORCE_VALUES, "force the MPI_Gather algorithm"},
    {"AUTOCOLL_REDUCE", "auto", FORCE_VALUES, "force the MPI_Reduce algorithm"},
    {"AUTOCOLL_REDUCE_SCATTER", "auto", FORCE_VALUES, "force the MPI_Reduce_scatter algorithm"},
    {"AUTOCOLL_REDUCE_SCATTER_BLOCK", "auto", FORCE_VALUES,
     "force the MPI_Reduce_scatter_block algorithm"},
    {"AUTOCOLL_SCATTER", "auto", FORCE_VALUES, "force the MPI_Scatter algorithm"},
    {"AUTOCOLL_TEST_RANKS_PER_NODE", "0", "0 | k",
     "testing only: treat consecutive blocks of k ranks as nodes (0: real shared-memory nodes)"},
};

const ac_setting *ac_settings(int *count)
{
    *count = (int)(sizeof(settings) / sizeof(settings[0]));
    return settings;
}

const ac_setting *ac_setting_find(const char *name)
{
    int n;
    const ac_setting *s = ac_settings(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0) return &s[i];
    return NULL;
}

const char *ac_config_get(const char *name)
{
    const ac_setting *s = ac_setting_find(name);
    if (!s) return NULL;
    const char *v = getenv(name);
    return (v && *v) ? v : s->default_value;
}

long ac_config_long(const char *name)
{
    const ac_setting *s = ac_setting_find(name);
    if (!s) return 0;
    const char *v = ac_config_get(name);
    char *end;
    long x = strtol(v, &end, 10);
    if (*end != '\0') {
        ac_log_warn("%s=%s is not an integer; using the default %s", name, v, s->default_value);
        x = strtol(s->default_value, NULL, 10);
    }
    return x;
}

double ac_config_double(const char *name)
{
    const ac_setting *s = ac_setting_find(name);
    if (!s) return 0;
    const char *v = ac_config_get(name);
    char *end;
    double x = strtod(v, &end);
    if (*end != '\0') {
        ac_log_warn("%s=%s is not a number; using the default %s", name, v, s->default_value);
        x = strtod(s->default_value, NULL);
    }
    return x;
}

int ac_config_hash(void)
{
    unsigned long h = 5381;
    int n;
    const ac_setting *s = ac_settings(&n);
    for (int i = 0; i < n; i++) {
        const char *v = ac_config_get(s[i].name);
        for (const char *c = v; *c; c++)
            h = h * 33 + (unsigned char)*c;
        h = h * 33 + 0xff;
    }
    return (int)(h & 0x7fffffff);
}
