/*
 * clock.c - the layer's clock.
 */
#include "core/clock.h"

#include <mpi.h>

double ac_now(void)
{
    return PMPI_Wtime();
}
