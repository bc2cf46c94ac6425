/*
 * config.h - the one table of AUTOCOLL_* settings. Values come from the environment, read once
 * at initialisation; every rank must see the same values (checked at MPI_Init, see state.c).
 */
#ifndef AUTOCOLL_CONFIG_H
#define AUTOCOLL_CONFIG_H

typedef struct ac_setting {
    const char *name;          /* environment variable */
    const char *default_value; /* value when unset */
    const char *values;        /* what it accepts */
    const char *summary;
} ac_setting;

/* The table, in display order. */
const ac_setting *ac_settings(int *count);

/* The entry of `name`, or NULL for a name not in the table. */
const ac_setting *ac_setting_find(const char *name);

/* Value of a setting: the environment's, or the default. NULL for a name not in the table. */
const char *ac_config_get(const char *name);

/* Integer value (strtol); the default's value if the environment's does not parse, with a
 * warning. */
long ac_config_long(const char *name);

/* Floating-point value (strtod), like ac_config_long. */
double ac_config_double(const char *name);

/* 31-bit hash of every setting's value, to check that all ranks were configured alike. */
int ac_config_hash(void);

#endif
