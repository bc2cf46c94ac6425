/*
 * monitor.h - the monitor of a settled choice, shared by the strategies that settle on one
 * candidate and watch it (race, model): windows of calls that start at AC_MONITOR_WINDOW_MIN
 * and double up to a longest one while the choice holds; at the end of each window ONE
 * agreement of the local times of its last (at most AC_MONITOR_WINDOW_MIN) calls, the maximum
 * over the ranks per call; the strategy compares them with its own statistics and tells the
 * monitor whether the window was degraded. The first degraded window shortens the window to
 * AC_MONITOR_WINDOW_MIN (look again soon: a one-window transient changes nothing); a second in
 * a row is the strategy's cue to decide again. After `refresh` settled calls (0: never) the
 * strategy measures the others again (a refresh); when the refresh keeps the choice, the next
 * interval doubles, up to AC_MONITOR_REFRESH_MAX_FACTOR x `refresh`, otherwise it is `refresh`
 * again. Every step depends only on call counts and agreed values (invariant 1). Its back-off
 * (ac_doubled) is also star's and lottery's: star's monitoring factor, their recheck intervals.
 */
#ifndef AUTOCOLL_MONITOR_H
#define AUTOCOLL_MONITOR_H

#include "select/strategy.h"

enum {
    AC_MONITOR_WINDOW_MIN = 16,        /* the first window, and the most calls agreed on */
    AC_MONITOR_REFRESH_MAX_FACTOR = 64 /* the longest interval between refreshes, x refresh */
};

typedef struct ac_monitor {
    int window_max;        /* longest window, calls */
    long refresh;          /* settled calls before the first refresh; 0: never */
    int window;            /* calls of the current window */
    int calls;             /* calls of it so far */
    int kept;              /* local times kept in recent[] */
    int suspicious;        /* the last window was degraded */
    double recent[AC_MONITOR_WINDOW_MIN]; /* local, then agreed, times of its last calls */
    long since;            /* settled calls since the last settle */
    long refresh_interval; /* settled calls before the next refresh */
} ac_monitor;

/* x doubled, at most `max` (x > 0, max > 0): the back-off of windows and intervals. */
long long ac_doubled(long long x, long long max);

/* A monitor with these parameters, the refresh interval at `refresh`; settle before use. */
void ac_monitor_init(ac_monitor *m, int window_max, long refresh);

/* A choice was made: the first window starts (AC_MONITOR_WINDOW_MIN calls), nothing kept, not
 * suspicious, no settled call since. */
void ac_monitor_settle(ac_monitor *m);

/* A settled call took `seconds` locally; of each window's calls the last `keep` are kept
 * (keep <= AC_MONITOR_WINDOW_MIN; the window's length if shorter). Returns 1 when it ended
 * the window: call ac_monitor_agree. */
static inline int ac_monitor_record(ac_monitor *m, double seconds, int keep)
{
    int k = keep < m->window ? keep : m->window;
    m->since++;
    if (m->window - m->calls <= k) m->recent[m->kept++] = seconds;
    m->calls++;
    return m->calls == m->window;
}

/* The window's one agreement: recent[0..kept) become the maximum over the ranks. On success
 * *k is the number of agreed times, and a new window starts counting (its length is the
 * strategy's verdict's); returns the agreement's MPI error code. */
int ac_monitor_agree(ac_monitor *m, const ac_agreement *agree, int *k);

/* The strategy found the window degraded: 1 when the window before was degraded too (decide
 * again), else 0, the monitor suspicious and the next window the shortest. */
int ac_monitor_degraded(ac_monitor *m);

/* The strategy found the window not degraded: not suspicious, the next window doubled (up to
 * window_max). */
void ac_monitor_calm(ac_monitor *m);

/* The window after one that was not degraded. */
int ac_monitor_next_window(const ac_monitor *m);

/* Whether a refresh is due: refresh > 0 and as many settled calls since the last settle as
 * the interval. */
int ac_monitor_refresh_due(const ac_monitor *m);

/* A refresh ended: kept (the choice held) doubles the interval, up to
 * AC_MONITOR_REFRESH_MAX_FACTOR x refresh; a change makes it `refresh` again. */
void ac_monitor_refreshed(ac_monitor *m, int kept);

#endif
