/*
 * model.h - the `model` strategy (issue 21, item 3): the cost models of coll/cost.h rank the
 * candidates before anything runs; only those predicted close to the best are measured, with
 * native; every agreed timing refits the platform parameters, which may bring one more round
 * of candidates the corrected model finds promising; the best measured wins and runs under a
 * monitor like race's. A pure state machine like race.c: no MPI call, the only collective
 * step is the ac_agreement callback. See model.c for the rules.
 */
#ifndef AUTOCOLL_MODEL_H
#define AUTOCOLL_MODEL_H

#include "coll/cost.h"
#include "select/strategy.h"

/* Parameters, read by create(). The strategy's configure() fills them from the
 * AUTOCOLL_MODEL_* settings, whose declaration (core/config.c) holds their defaults and
 * ranges. */
typedef struct ac_model_params {
    double margin;       /* round 1 measures the candidates predicted within (1 + margin) x
                          * the best prediction; round 2 those the refitted model predicts
                          * within (1 + margin / 2) x the best measured median */
    int samples;         /* calls of each measured candidate */
    int budget;          /* calls of one decision at most (native included) */
    double epsilon;      /* monitor: degraded when the recent median > (1 + epsilon) x the
                          * runner-up's */
    int window_max;      /* longest monitoring window, calls (windows double from 16) */
    int challenges;      /* monitor: at most this many challenges per context (model.c) */
    int refresh;         /* monitor: settled calls before a refresh (model.c); 0: never */
    double platform[AC_COST_PARAMS]; /* the parameters before any fit (cost.h order) */
    double prior_weight; /* how strongly a fit keeps the parameters near `platform` */
    double group_range;  /* each round measures first the best predicted of each group
                          * (`groups`) not measured yet, predicted within group_range x the best
                          * prediction (round 1) or measured median (round 2); 0: off */
    int groups;          /* AC_MODEL_GROUPS_*: the groups the rounds take one candidate of */
    double horizon;      /* calls a mesh's set-up must pay back within: once a mesh's set-up
                          * has been seen, a layout on a mesh not made yet is measured (round
                          * 2, a new decision) only when its prediction plus its estimated
                          * set-up / horizon beats the best measured; 0: set-up ignored */
} ac_model_params;

/* The groups of group_range (AUTOCOLL_MODEL_GROUPS): the registry's (STAR-MPI's algorithm
 * groups), or those split by the mesh dimensionality of their members (attribute `dims`). */
enum { AC_MODEL_GROUPS_REGISTRY = 0, AC_MODEL_GROUPS_DIMS = 1 };

/* The rules of the stand-ins that price the library's own collective inside composed instances
 * (AUTOCOLL_MODEL_STAND_INS, coll/stand_ins.c): auto (by the MPI library of the build: Open
 * MPI's tuned for Open MPI, MPICH's for the others), mpich, tuned. */
enum { AC_MODEL_STAND_INS_AUTO = 0, AC_MODEL_STAND_INS_MPICH = 1, AC_MODEL_STAND_INS_TUNED = 2 };

/* Sets coll/cost.h's stand-in rules from AUTOCOLL_MODEL_STAND_INS (the model's configure does;
 * autocoll-info too, before it prints cost features). */
void ac_model_apply_stand_ins(void);

/* Stages reported by ac_model_get_stats(). */
enum {
    AC_MODEL_MEASURING = 0, /* a decision is measuring candidates */
    AC_MODEL_SETTLED = 1,   /* the best measured runs under the monitor */
    AC_MODEL_STOPPED = 2    /* an agreement failed: native (candidate 0) from then on */
};

typedef struct ac_model_stats {
    int stage;          /* AC_MODEL_* above */
    int chosen;         /* candidate index, -1 during the first decision */
    long first_calls;   /* calls of the first decision (the decision length) */
    long decide_calls;  /* calls of every decision */
    long settled_calls; /* calls under the monitor (challenges included) */
    int decisions;      /* decisions started (the first one included) */
    int switches;       /* changes of the choice after the first decision */
    int challenges;     /* challenges run (model.c: the monitor under noise) */
    int refreshes;      /* refreshes started (model.c: the monitor's refresh) */
    int agreements;     /* agreement calls so far */
    int measured;       /* candidates measured in this run */
    int observations;   /* agreed timings behind the fit */
} ac_model_stats;

/* Parameters for states created from now on, and the ones create() will use. */
void ac_model_set_params(const ac_model_params *p);
void ac_model_get_params(ac_model_params *out);

/* A snapshot of a state made by ac_strategy_model.create. */
void ac_model_get_stats(const void *state, ac_model_stats *out);

/* What the state learned of the platform, for the history file: the fitted parameters into
 * value[AC_COST_PARAMS], and into weight[AC_COST_PARAMS] how many observations' worth of
 * evidence stands behind each: the sum over the kept observations of the share of the
 * predicted time that parameter accounts for (a parameter no observation involves: 0; one
 * that explains all of k observations: k). */
void ac_model_get_learned(const void *state, double *value, double *weight);

/* The model's history line: the parameters' values and the evidence behind each (weights
 * below 0.5 are left out, the others rounded to samples). */
void ac_model_write_learned(FILE *f, const double *value, const double *weight);

extern const ac_strategy ac_strategy_model;

#endif
