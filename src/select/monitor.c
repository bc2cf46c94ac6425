/*
 * monitor.c - the monitor of a settled choice (monitor.h).
 */
#include "select/monitor.h"

long long ac_doubled(long long x, long long max)
{
    return x > max / 2 ? max : 2 * x;
}

void ac_monitor_init(ac_monitor *m, int window_max, long refresh)
{
    m->window_max = window_max;
    m->refresh = refresh;
    m->refresh_interval = refresh;
}

void ac_monitor_settle(ac_monitor *m)
{
    m->window = AC_MONITOR_WINDOW_MIN;
    m->calls = 0;
    m->kept = 0;
    m->suspicious = 0;
    m->since = 0;
}

int ac_monitor_agree(ac_monitor *m, const ac_agreement *agree, int *k)
{
    int rc = agree->max(agree->ctx, m->recent, m->kept);
    if (rc != 0) return rc;
    *k = m->kept;
    m->calls = 0;
    m->kept = 0;
    return rc;
}

int ac_monitor_degraded(ac_monitor *m)
{
    if (m->suspicious) return 1;
    m->suspicious = 1;
    m->window = AC_MONITOR_WINDOW_MIN;
    return 0;
}

int ac_monitor_next_window(const ac_monitor *m)
{
    return (int)ac_doubled(m->window, m->window_max);
}

void ac_monitor_calm(ac_monitor *m)
{
    m->suspicious = 0;
    m->window = ac_monitor_next_window(m);
}

int ac_monitor_refresh_due(const ac_monitor *m)
{
    return m->refresh > 0 && m->since >= m->refresh_interval;
}

void ac_monitor_refreshed(ac_monitor *m, int kept)
{
    long longest = AC_MONITOR_REFRESH_MAX_FACTOR * m->refresh;
    m->refresh_interval = kept ? (long)ac_doubled(m->refresh_interval, longest) : m->refresh;
}
