/*
 * lines_none.c - lines.h where the build found no libdw: no resolver, so the report names
 * call sites module+0xoffset.
 */
#include "report/lines.h"

#include <stddef.h>

ac_lines *ac_lines_open(void)
{
    return NULL;
}

void ac_lines_close(ac_lines *lines)
{
    (void)lines;
}

void ac_lines_find(ac_lines *lines, const void *address, ac_source_line *out)
{
    (void)lines;
    (void)address;
    out->file[0] = '\0';
    out->line = 0;
    out->function[0] = '\0';
    out->module[0] = '\0';
}

const char *ac_lines_library(void)
{
    return "none";
}
