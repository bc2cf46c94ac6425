/*
 * site_name.c - call sites named for the report (site_name.h): the site's origin on this rank
 * (select/site.h) resolved through the line resolver, opened on the first name asked for.
 */
#include "report/site_name.h"

#include <stdio.h>
#include <string.h>

static ac_lines *lines;
static int lines_opened;

void ac_site_name_of(uint64_t key, ac_site_name *out)
{
    memset(out, 0, sizeof *out);
    if (!ac_site_origin_of(key, &out->origin)) {
        ac_site_describe(key, out->text, sizeof out->text);
        return;
    }
    out->known = 1;
    if (!lines_opened) {
        lines = ac_lines_open();
        lines_opened = 1;
    }
    /* The return address follows the call instruction, which may end another line. */
    if (lines) ac_lines_find(lines, (const char *)out->origin.address - 1, &out->source);
    const ac_source_line *s = &out->source;
    const char *slash = strrchr(s->file, '/');
    char where[700];
    if (s->line > 0)
        snprintf(where, sizeof where, "%s:%d", slash ? slash + 1 : s->file, s->line);
    else
        snprintf(where, sizeof where, "%s+0x%lx", out->origin.module,
                 (unsigned long)out->origin.offset);
    if (s->function[0])
        snprintf(out->text, sizeof out->text, "%s (%s)", where, s->function);
    else
        snprintf(out->text, sizeof out->text, "%s", where);
}

void ac_site_names_done(void)
{
    ac_lines_close(lines);
    lines = NULL;
    lines_opened = 0;
}
