/*
 * fnctset.c - ADCL's attributes, attribute sets, functions and function sets, and the
 * predefined set ADCL_FNCTSET_NEIGHBORHOOD built from the halo registry (halo/registry.c): one
 * function per implementation, its attributes (partners, primitive, data, sync) as values.
 */
#include "adcl/adcl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ADCL_fnctset_s ADCL_fnctset_neighborhood;

/* The predefined set, in static storage: built by the first ADCL_Init and kept (requests a
 * program forgot to free may still name its functions after ADCL_Finalize). Its attributes,
 * attribute set and functions are not user handles: users never free them. */
#define MAX_HALO_FUNCTIONS 32
#define MAX_HALO_VALUES 16
static struct ADCL_function_s halo_functions[MAX_HALO_FUNCTIONS];
static ADCL_Function halo_function_handles[MAX_HALO_FUNCTIONS];
static int halo_attrvals[MAX_HALO_FUNCTIONS][AC_HALO_ATTRIBUTES];
static int halo_values[AC_HALO_ATTRIBUTES][MAX_HALO_VALUES];
static struct ADCL_attribute_s halo_attributes[AC_HALO_ATTRIBUTES];
static ADCL_Attribute halo_attribute_handles[AC_HALO_ATTRIBUTES];
static struct ADCL_attrset_s halo_attrset = {AC_HALO_ATTRIBUTES, halo_attribute_handles};

static char *copy(const char *s)
{
    char *c = malloc(strlen(s) + 1);
    if (c) strcpy(c, s);
    return c;
}

static void attribute_clear(ADCL_Attribute a)
{
    for (int i = 0; a->value_names && i < a->n; i++) free(a->value_names[i]);
    free(a->value_names);
    free(a->values);
    free(a->name);
}

int ADCL_Attribute_create(int maxnvalues, int *values, char **value_names, char *attr_name,
                          ADCL_Attribute *attr)
{
    if (!attr || !values || !attr_name || maxnvalues < 1)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__,
                            "maxnvalues %d, values, value names and a name needed", maxnvalues);
    for (int i = 0; i < maxnvalues; i++)
        for (int j = 0; j < i; j++)
            if (values[i] == values[j])
                return ac_adcl_fail(ADCL_INVALID_ARG, __func__,
                                    "value %d appears twice in attribute %s", values[i],
                                    attr_name);
    ADCL_Attribute a = calloc(1, sizeof *a);
    if (!a) return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    a->n = maxnvalues;
    a->name = copy(attr_name);
    a->values = malloc((size_t)maxnvalues * sizeof *a->values);
    a->value_names = calloc((size_t)maxnvalues, sizeof *a->value_names);
    int ok = a->name && a->values && a->value_names;
    for (int i = 0; ok && i < maxnvalues; i++) {
        char number[16];
        a->values[i] = values[i];
        snprintf(number, sizeof number, "%d", values[i]);
        a->value_names[i] = copy(value_names && value_names[i] ? value_names[i] : number);
        ok = a->value_names[i] != NULL;
    }
    if (!ok || ac_adcl_live_add(AC_ADCL_KIND_ATTRIBUTE, a) != ADCL_SUCCESS) {
        attribute_clear(a);
        free(a);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    *attr = a;
    return ADCL_SUCCESS;
}

int ADCL_Attribute_free(ADCL_Attribute *attr)
{
    if (!attr || !ac_adcl_live(AC_ADCL_KIND_ATTRIBUTE, *attr))
        return ac_adcl_fail(ADCL_INVALID_ATTRIBUTE, __func__, "not a live attribute");
    ac_adcl_live_remove(AC_ADCL_KIND_ATTRIBUTE, *attr);
    attribute_clear(*attr);
    free(*attr);
    *attr = ADCL_ATTRIBUTE_NULL;
    return ADCL_SUCCESS;
}

int ADCL_Attrset_create(int maxnum, ADCL_Attribute *attrs, ADCL_Attrset *attrset)
{
    if (!attrset || !attrs || maxnum < 1)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "maxnum %d and attributes needed",
                            maxnum);
    for (int i = 0; i < maxnum; i++)
        if (!ac_adcl_live(AC_ADCL_KIND_ATTRIBUTE, attrs[i]))
            return ac_adcl_fail(ADCL_INVALID_ATTRIBUTE, __func__, "attribute %d is not live", i);
    ADCL_Attrset s = calloc(1, sizeof *s);
    if (s) s->attrs = malloc((size_t)maxnum * sizeof *s->attrs);
    if (!s || !s->attrs || ac_adcl_live_add(AC_ADCL_KIND_ATTRSET, s) != ADCL_SUCCESS) {
        if (s) free(s->attrs);
        free(s);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    s->n = maxnum;
    memcpy(s->attrs, attrs, (size_t)maxnum * sizeof *attrs);
    *attrset = s;
    return ADCL_SUCCESS;
}

int ADCL_Attrset_free(ADCL_Attrset *attrset)
{
    if (!attrset || !ac_adcl_live(AC_ADCL_KIND_ATTRSET, *attrset))
        return ac_adcl_fail(ADCL_INVALID_ATTRSET, __func__, "not a live attribute set");
    ac_adcl_live_remove(AC_ADCL_KIND_ATTRSET, *attrset);
    free((*attrset)->attrs);
    free(*attrset);
    *attrset = ADCL_ATTRSET_NULL;
    return ADCL_SUCCESS;
}

/* Whether `value` is one of attribute a's values. */
static int has_value(ADCL_Attribute a, int value)
{
    for (int i = 0; i < a->n; i++)
        if (a->values[i] == value) return 1;
    return 0;
}

int ADCL_Function_create(ADCL_work_fnct_ptr *fnct, ADCL_Attrset attrset, int *attrvals,
                         char *name, ADCL_Function *fnct_handle)
{
    if (!fnct || !name || !fnct_handle)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "a function, a name and an output needed");
    if (attrset != ADCL_ATTRSET_NULL) {
        if (!ac_adcl_live(AC_ADCL_KIND_ATTRSET, attrset))
            return ac_adcl_fail(ADCL_INVALID_ATTRSET, __func__, "not a live attribute set");
        if (!attrvals)
            return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "attribute values needed for %s",
                                name);
        for (int i = 0; i < attrset->n; i++)
            if (!has_value(attrset->attrs[i], attrvals[i]))
                return ac_adcl_fail(ADCL_INVALID_VALUE, __func__,
                                    "%s: %d is not a value of attribute %s", name, attrvals[i],
                                    attrset->attrs[i]->name);
    }
    ADCL_Function f = calloc(1, sizeof *f);
    int n = attrset ? attrset->n : 0;
    if (f) {
        f->name = copy(name);
        f->attrvals = malloc((size_t)(n ? n : 1) * sizeof *f->attrvals);
    }
    if (!f || !f->name || !f->attrvals ||
        ac_adcl_live_add(AC_ADCL_KIND_FUNCTION, f) != ADCL_SUCCESS) {
        if (f) {
            free(f->name);
            free(f->attrvals);
        }
        free(f);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    f->fnct = fnct;
    f->attrset = attrset;
    if (n) memcpy(f->attrvals, attrvals, (size_t)n * sizeof *attrvals);
    *fnct_handle = f;
    return ADCL_SUCCESS;
}

int ADCL_Function_free(ADCL_Function *fnct)
{
    if (!fnct || !ac_adcl_live(AC_ADCL_KIND_FUNCTION, *fnct))
        return ac_adcl_fail(ADCL_INVALID_FUNCTION, __func__, "not a live user function");
    ac_adcl_live_remove(AC_ADCL_KIND_FUNCTION, *fnct);
    free((*fnct)->name);
    free((*fnct)->attrvals);
    free(*fnct);
    *fnct = ADCL_FUNCTION_NULL;
    return ADCL_SUCCESS;
}

int ADCL_Fnctset_create(int maxnum, ADCL_Function *fncts, char *name, ADCL_Fnctset *fnctset)
{
    if (!fncts || !name || !fnctset || maxnum < 1)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__,
                            "maxnum %d, functions, a name and an output needed", maxnum);
    for (int i = 0; i < maxnum; i++)
        if (!ac_adcl_live(AC_ADCL_KIND_FUNCTION, fncts[i]))
            return ac_adcl_fail(ADCL_INVALID_FUNCTION, __func__, "function %d is not live", i);
    ADCL_Fnctset s = calloc(1, sizeof *s);
    if (s) {
        s->name = copy(name);
        s->fncts = malloc((size_t)maxnum * sizeof *s->fncts);
    }
    if (!s || !s->name || !s->fncts || ac_adcl_live_add(AC_ADCL_KIND_FNCTSET, s) != ADCL_SUCCESS) {
        if (s) {
            free(s->name);
            free(s->fncts);
        }
        free(s);
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    }
    s->n = maxnum;
    memcpy(s->fncts, fncts, (size_t)maxnum * sizeof *fncts);
    *fnctset = s;
    return ADCL_SUCCESS;
}

int ADCL_Fnctset_free(ADCL_Fnctset *fnctset)
{
    if (fnctset && (*fnctset == ADCL_FNCTSET_NEIGHBORHOOD || ac_adcl_collective_set(*fnctset)))
        return ac_adcl_fail(ADCL_INVALID_FNCTSET, __func__, "a predefined function set");
    if (!fnctset || !ac_adcl_live(AC_ADCL_KIND_FNCTSET, *fnctset))
        return ac_adcl_fail(ADCL_INVALID_FNCTSET, __func__, "not a live function set");
    ac_adcl_live_remove(AC_ADCL_KIND_FNCTSET, *fnctset);
    free((*fnctset)->name);
    free((*fnctset)->fncts);
    free(*fnctset);
    *fnctset = ADCL_FNCTSET_NULL;
    return ADCL_SUCCESS;
}

int ac_adcl_neighborhood_build(void)
{
    int n;
    const ac_halo_impl *impls = ac_halo_registry(&n);
    struct ADCL_fnctset_s *set = &ADCL_fnctset_neighborhood;
    if (set->predefined) return ADCL_SUCCESS;
    if (n > MAX_HALO_FUNCTIONS) return ADCL_ERROR_INTERNAL;
    for (int a = 0; a < AC_HALO_ATTRIBUTES; a++) {
        const char *const *names = ac_halo_attribute_values(a);
        ADCL_Attribute attr = &halo_attributes[a];
        int k = 0;
        while (names[k] && k < MAX_HALO_VALUES) {
            halo_values[a][k] = k;
            k++;
        }
        attr->name = (char *)ac_halo_attribute_name(a);
        attr->n = k;
        attr->values = halo_values[a];
        attr->value_names = (char **)names;
        halo_attribute_handles[a] = attr;
    }
    for (int i = 0; i < n; i++) {
        ADCL_Function f = &halo_functions[i];
        f->name = (char *)impls[i].name;
        f->halo = &impls[i];
        f->attrset = &halo_attrset;
        f->attrvals = halo_attrvals[i];
        for (int a = 0; a < AC_HALO_ATTRIBUTES; a++)
            halo_attrvals[i][a] = ac_halo_attribute(&impls[i], a);
        halo_function_handles[i] = f;
    }
    set->name = "neighborhood";
    set->n = n;
    set->fncts = halo_function_handles;
    set->predefined = 1;
    return ADCL_SUCCESS;
}
