/*
 * seen.c - counts of the collectives the layer does not run (seen.h).
 */
#include "core/seen.h"
#include "core/state.h"

#include <stdatomic.h>

static atomic_long calls[AC_SEEN_KINDS];
static atomic_llong bytes[AC_SEEN_KINDS];
static atomic_int uncounted[AC_SEEN_KINDS]; /* some call's bytes were not counted */
static atomic_long whys[AC_SEEN_KINDS][AC_SEEN_WHYS];
static const char *const why_names[AC_SEEN_WHYS] = {
    [AC_SEEN_WHY_NOT_RUN] = "no_algorithm",      [AC_SEEN_WHY_ARGUMENTS] = "arguments",
    [AC_SEEN_WHY_COMMUNICATOR] = "communicator", [AC_SEEN_WHY_THREADS] = "threads",
    [AC_SEEN_WHY_SELECTION] = "selection"};

/* the calls run by the layer (one thread at a time: requests.c runs none under
 * MPI_THREAD_MULTIPLE) */
static struct {
    long calls;
    double bytes, seconds, waited;
    const char *names[AC_SEEN_RUN_ALGORITHMS];
    long by[AC_SEEN_RUN_ALGORITHMS];
    int nnames;
} run[AC_SEEN_KINDS];

static const char *const names[AC_SEEN_KINDS] = {
#define AC_SEEN_NAME(e, name) [AC_SEEN_##e] = name,
    AC_SEEN_MPI3(AC_SEEN_NAME)
#if MPI_VERSION >= 4
    AC_SEEN_MPI4(AC_SEEN_NAME)
#endif
#undef AC_SEEN_NAME
};

int ac_seen_on(void)
{
    return ac_g.enabled;
}

void ac_seen(ac_seen_kind kind, MPI_Comm comm, double moved)
{
    ac_seen_passed(kind, comm, moved, AC_SEEN_WHY_NOT_RUN);
}

void ac_seen_passed(ac_seen_kind kind, MPI_Comm comm, double moved, ac_seen_why why)
{
    (void)comm; /* counted per run; the communicator is the library's business here */
    if (kind < 0 || kind >= AC_SEEN_KINDS || why < 0 || why >= AC_SEEN_WHYS) return;
    atomic_fetch_add(&calls[kind], 1);
    atomic_fetch_add(&whys[kind][why], 1);
    if (moved >= 0.0)
        atomic_fetch_add(&bytes[kind], (long long)moved);
    else
        atomic_store(&uncounted[kind], 1);
}

double ac_seen_bytes(long long count, MPI_Datatype type)
{
    int size = 0;
    if (count < 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return -1.0;
    return (double)count * size;
}

const char *ac_seen_why_name(ac_seen_why why)
{
    return why >= 0 && why < AC_SEEN_WHYS ? why_names[why] : "?";
}

long ac_seen_why_calls(ac_seen_kind kind, ac_seen_why why)
{
    if (kind < 0 || kind >= AC_SEEN_KINDS || why < 0 || why >= AC_SEEN_WHYS) return 0;
    return atomic_load(&whys[kind][why]);
}

const char *ac_seen_name(ac_seen_kind kind)
{
    return kind >= 0 && kind < AC_SEEN_KINDS ? names[kind] : "?";
}

long ac_seen_calls(ac_seen_kind kind)
{
    return kind >= 0 && kind < AC_SEEN_KINDS ? atomic_load(&calls[kind]) : 0;
}

double ac_seen_total_bytes(ac_seen_kind kind)
{
    if (kind < 0 || kind >= AC_SEEN_KINDS || atomic_load(&uncounted[kind])) return -1.0;
    return (double)atomic_load(&bytes[kind]);
}

void ac_seen_run(ac_seen_kind kind, const char *algorithm, double moved, double seconds,
                 double waited)
{
    if (kind < 0 || kind >= AC_SEEN_KINDS) return;
    int i = 0, last = AC_SEEN_RUN_ALGORITHMS - 1;
    while (i < run[kind].nnames && i < last && run[kind].names[i] != algorithm)
        i++;
    if (i == run[kind].nnames && i < last) {
        run[kind].names[run[kind].nnames++] = algorithm;
    } else if (i == last) { /* every named slot taken by others */
        run[kind].names[last] = "others";
        run[kind].nnames = last + 1;
    }
    run[kind].by[i]++;
    run[kind].calls++;
    run[kind].bytes += moved;
    run[kind].seconds += seconds;
    run[kind].waited += waited;
}

long ac_seen_run_calls(ac_seen_kind kind)
{
    return kind >= 0 && kind < AC_SEEN_KINDS ? run[kind].calls : 0;
}

double ac_seen_run_bytes(ac_seen_kind kind)
{
    return kind >= 0 && kind < AC_SEEN_KINDS ? run[kind].bytes : 0.0;
}

double ac_seen_run_seconds(ac_seen_kind kind)
{
    return kind >= 0 && kind < AC_SEEN_KINDS ? run[kind].seconds : 0.0;
}

double ac_seen_run_waited(ac_seen_kind kind)
{
    return kind >= 0 && kind < AC_SEEN_KINDS ? run[kind].waited : 0.0;
}

int ac_seen_run_algorithms(ac_seen_kind kind, const char *names[], long calls[])
{
    if (kind < 0 || kind >= AC_SEEN_KINDS) return 0;
    for (int i = 0; i < run[kind].nnames; i++)
        names[i] = run[kind].names[i], calls[i] = run[kind].by[i];
    return run[kind].nnames;
}
