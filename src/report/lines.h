/*
 * lines.h - source lines of code addresses in this process, for the report's call sites.
 *
 * Two implementations, one chosen by CMake (no #ifdef): lines_libdw.c reads the DWARF line
 * tables and symbol tables of the loaded modules with elfutils' libdw (its dwfl API over
 * /proc/self/maps); lines_none.c, where libdw is absent at build time, finds nothing, and the
 * report names sites module+0xoffset. Used only while the report is written (MPI_Finalize):
 * opening reads the process's module list, the first lookup in a module loads its DWARF.
 */
#ifndef AUTOCOLL_LINES_H
#define AUTOCOLL_LINES_H


typedef struct ac_source_line {
    char file[512];     /* as the debug information names it ("" if unknown) */
    int line;           /* 0 if unknown */
    char function[256]; /* the function containing the address ("" if unknown) */
    char module[512];   /* the module's file as the process maps it ("" if unknown) */
} ac_source_line;

typedef struct ac_lines ac_lines;

/* The resolver of this process; NULL where there is none (no library, or it failed). */
ac_lines *ac_lines_open(void);
void ac_lines_close(ac_lines *lines);

/* The module, source line and function of the instruction at `address` (fields left empty
 * where the module is not found, has no line table or no symbol). */
void ac_lines_find(ac_lines *lines, const void *address, ac_source_line *out);

/* The library in use, e.g. "libdw 0.188", or "none". */
const char *ac_lines_library(void);

#endif
