/*
 * clock.h - the one clock of the layer: MPI's wall clock (simulated time under SMPI).
 */
#ifndef AUTOCOLL_CLOCK_H
#define AUTOCOLL_CLOCK_H

/* Seconds since an arbitrary origin (PMPI_Wtime). */
double ac_now(void);

#endif
