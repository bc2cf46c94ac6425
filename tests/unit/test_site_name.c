/*
 * test_site_name.c - the report's names of call sites (src/report/site_name.c) without MPI,
 * over each line resolver: built with lines_libdw.c (test_site_name: a site of this file is
 * named "test_site_name.c:LINE (main)", LINE the line of the call) and with lines_none.c
 * (test_site_name_none: "test_site_name_none+0xOFFSET"). The argument says which one it is.
 */
#include "report/site_name.h"

#include "check.h"

#include <stdio.h>
#include <string.h>

/* The site key of the call of this function, and the return address it came from. */
__attribute__((noinline)) static uint64_t key_here(const void **address)
{
    *address = __builtin_return_address(0);
    return ac_site_key(*address);
}

int main(int argc, char **argv)
{
    const void *address;
    const int line = __LINE__ + 1; /* the line of the call below */
    uint64_t key = key_here(&address);
    int libdw = argc > 1 && strcmp(argv[1], "libdw") == 0;
    ac_site_name name;
    char expected[1024];
    CHECK(argc > 1 && (libdw || strcmp(argv[1], "none") == 0));
    CHECK(strncmp(ac_lines_library(), libdw ? "libdw 0." : "none", libdw ? 8 : 5) == 0);
    for (int round = 0; round < 2; round++) { /* again after the resolver was released */
        ac_site_name_of(key, &name);
        CHECK(name.known && name.origin.address == address);
        if (libdw)
            snprintf(expected, sizeof expected, "test_site_name.c:%d (main)", line);
        else
            snprintf(expected, sizeof expected, "test_site_name_none+0x%lx",
                     (unsigned long)name.origin.offset);
        if (!CHECK(strcmp(name.text, expected) == 0))
            fprintf(stderr, "  got \"%s\", expected \"%s\"\n", name.text, expected);
        CHECK(name.source.line == (libdw ? line : 0));
        ac_site_names_done();
    }
    ac_site_name_of(0, &name);
    CHECK(!name.known && strcmp(name.text, "*") == 0);
    ac_site_name_of(key ^ 1, &name); /* a key this process never made */
    CHECK(!name.known && strlen(name.text) == 16);
    ac_site_names_done();
    if (failures) {
        fprintf(stderr, "test_site_name: %d checks failed\n", failures);
        return 1;
    }
    printf("test_site_name: all checks passed\n");
    return 0;
}
