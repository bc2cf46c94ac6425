/*
 * site_name.h - the report's names of call sites: "file.c:LINE (function)" where the module
 * that called has a line table for the call, else "module+0xOFFSET (function)" where it has a
 * symbol, else "module+0xOFFSET" (src/report/lines.h says which library resolves lines). The
 * line is the one of the call instruction: the address before the return address the site key
 * was made from. Only while the report is written.
 */
#ifndef AUTOCOLL_SITE_NAME_H
#define AUTOCOLL_SITE_NAME_H

#include "report/lines.h"
#include "select/site.h"

#include <stdint.h>

typedef struct ac_site_name {
    int known;              /* this rank made the key: origin and source are filled */
    ac_site_origin origin;  /* module and offset */
    ac_source_line source;  /* file, line, function where found */
    char text[1024];        /* the readable name ("*": site-less) */
} ac_site_name;

void ac_site_name_of(uint64_t key, ac_site_name *out);

/* Release the resolver (the next ac_site_name_of opens it again). */
void ac_site_names_done(void);

#endif
