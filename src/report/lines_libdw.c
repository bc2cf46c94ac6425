/*
 * lines_libdw.c - lines.h with elfutils' libdw: the modules of this process as the dynamic
 * loader mapped them (dwfl_linux_proc_report), then per address the module
 * (dwfl_addrmodule), its line table (dwfl_module_getsrc, dwfl_lineinfo) and the function: the
 * innermost function of the debug information's scopes (an inlined one included, and by its
 * source name: "f" for the compiler's clone "f.constprop.0"), else the symbol table's
 * (dwfl_module_addrname) less a clone's suffix. Debug information is read from the module
 * itself, else from the local places elfutils looks (.gnu_debuglink,
 * /usr/lib/debug/.build-id), never from a debuginfod server: the report is written at
 * MPI_Finalize, which must not wait on a network.
 */
#include "report/lines.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* elfutils asks a debuginfod server (DEBUGINFOD_URLS) when the local search fails: with the
 * variable set, take only what the module carries. */
static int find_debuginfo_locally(Dwfl_Module *mod, void **userdata, const char *modname,
                                  Dwarf_Addr base, const char *file_name,
                                  const char *debuglink_file, GElf_Word debuglink_crc,
                                  char **debuginfo_file_name)
{
    const char *servers = getenv("DEBUGINFOD_URLS");
    if (servers && *servers) return -1;
    return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
                                        debuglink_file, debuglink_crc, debuginfo_file_name);
}

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = find_debuginfo_locally,
    .debuginfo_path = &debuginfo_path,
};

struct ac_lines {
    Dwfl *dwfl;
};

ac_lines *ac_lines_open(void)
{
    ac_lines *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->dwfl = dwfl_begin(&callbacks);
    if (!l->dwfl) goto fail;
    if (dwfl_linux_proc_report(l->dwfl, getpid()) != 0) goto fail;
    if (dwfl_report_end(l->dwfl, NULL, NULL) != 0) goto fail;
    return l;
fail:
    ac_lines_close(l);
    return NULL;
}

void ac_lines_close(ac_lines *l)
{
    if (!l) return;
    if (l->dwfl) dwfl_end(l->dwfl);
    free(l);
}

/* The name of the innermost function (or inlined function) whose code holds pc; NULL. */
static const char *scope_function(Dwfl_Module *m, Dwarf_Addr pc)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias);
    Dwarf_Die *scopes = NULL;
    const char *name = NULL;
    int n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
    for (int i = 0; i < n && !name; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
            name = dwarf_diename(&scopes[i]);
    }
    free(scopes);
    return name;
}

void ac_lines_find(ac_lines *l, const void *address, ac_source_line *out)
{
    memset(out, 0, sizeof *out);
    Dwarf_Addr pc = (Dwarf_Addr)(uintptr_t)address;
    Dwfl_Module *m = dwfl_addrmodule(l->dwfl, pc);
    if (!m) return;
    const char *module = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    if (module) snprintf(out->module, sizeof out->module, "%s", module);
    const char *function = scope_function(m, pc);
    if (function) {
        snprintf(out->function, sizeof out->function, "%s", function);
    } else if ((function = dwfl_module_addrname(m, pc))) {
        /* GCC's clones are "f.constprop.0", "f.isra.0", "f.part.0", "f.cold": no source name
         * holds a dot. */
        snprintf(out->function, sizeof out->function, "%.*s", (int)strcspn(function, "."),
                 function);
    }
    Dwfl_Line *line = dwfl_module_getsrc(m, pc);
    int number = 0;
    const char *file = line ? dwfl_lineinfo(line, NULL, &number, NULL, NULL, NULL) : NULL;
    if (file && number > 0) {
        snprintf(out->file, sizeof out->file, "%s", file);
        out->line = number;
    }
}

const char *ac_lines_library(void)
{
    static char name[32];
    if (!name[0]) snprintf(name, sizeof name, "libdw %s", dwfl_version(NULL));
    return name;
}
