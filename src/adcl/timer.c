/*
 * timer.c - ADCL_Timer: the interval of one iteration (ADCL_Timer_start to _stop), credited as
 * one measurement to each request attached to the timer, instead of the request's own call
 * times: selection then judges the whole solver step, overlap and cache effects included.
 * A request's function changes only at ADCL_Timer_stop, so one interval runs one function.
 */
#include "adcl/adcl.h"
#include "core/clock.h"

#include <stdlib.h>
#include <string.h>

int ADCL_Timer_create(int nreqs, ADCL_Request *reqs, ADCL_Timer *timer)
{
    if (!timer || !reqs || nreqs < 1)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "nreqs %d, requests and an output needed",
                            nreqs);
    for (int i = 0; i < nreqs; i++) {
        if (!ac_adcl_live(AC_ADCL_KIND_REQUEST, reqs[i]))
            return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__, "request %d is not live", i);
        if (reqs[i]->timer)
            return ac_adcl_fail(ADCL_INVALID_REQUEST, __func__,
                                "request %d already has a timer", i);
    }
    ADCL_Timer t = calloc(1, sizeof *t);
    if (t) t->reqs = malloc((size_t)nreqs * sizeof *t->reqs);
    if (!t || !t->reqs || ac_adcl_live_add(AC_ADCL_KIND_TIMER, t) != ADCL_SUCCESS) {
        if (t) free(t->reqs);
        free(t);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    t->n = nreqs;
    memcpy(t->reqs, reqs, (size_t)nreqs * sizeof *reqs);
    for (int i = 0; i < nreqs; i++) reqs[i]->timer = t;
    *timer = t;
    return ADCL_SUCCESS;
}

int ADCL_Timer_start(ADCL_Timer timer)
{
    if (!ac_adcl_live(AC_ADCL_KIND_TIMER, timer))
        return ac_adcl_fail(ADCL_INVALID_TIMER, __func__, "not a live timer");
    timer->t_start = ac_now();
    timer->running = 1;
    return ADCL_SUCCESS;
}

int ADCL_Timer_stop(ADCL_Timer timer)
{
    if (!ac_adcl_live(AC_ADCL_KIND_TIMER, timer))
        return ac_adcl_fail(ADCL_INVALID_TIMER, __func__, "not a live timer");
    if (!timer->running)
        return ac_adcl_fail(ADCL_INVALID_TIMER, __func__, "the timer was not started");
    double seconds = ac_now() - timer->t_start;
    timer->running = 0;
    for (int i = 0; i < timer->n; i++) {
        ADCL_Request r = timer->reqs[i];
        if (!ac_adcl_live(AC_ADCL_KIND_REQUEST, r)) continue; /* freed since: nothing to judge */
        if (ac_adcl_request_measured(r, seconds) != MPI_SUCCESS)
            return ac_adcl_fail(ADCL_ERROR_INTERNAL, __func__, "agreeing the timings failed");
    }
    return ADCL_SUCCESS;
}

int ADCL_Timer_free(ADCL_Timer *timer)
{
    if (!timer || !ac_adcl_live(AC_ADCL_KIND_TIMER, *timer))
        return ac_adcl_fail(ADCL_INVALID_TIMER, __func__, "not a live timer");
    ADCL_Timer t = *timer;
    for (int i = 0; i < t->n; i++)
        if (ac_adcl_live(AC_ADCL_KIND_REQUEST, t->reqs[i]) && t->reqs[i]->timer == t)
            t->reqs[i]->timer = NULL;
    ac_adcl_live_remove(AC_ADCL_KIND_TIMER, t);
    free(t->reqs);
    free(t);
    *timer = ADCL_TIMER_NULL;
    return ADCL_SUCCESS;
}
