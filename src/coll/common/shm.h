/*
 * shm.h - a node's shared memory for the algorithms that move data through it instead of
 * messages (bcast_shm.c, reduce_shm.c, allreduce_shm.c, gather_shm.c, scatter_shm.c,
 * allgather_shm.c, alltoall_shm.c): one MPI-3 shared-memory window per communicator (MPI_Win_allocate_shared),
 * cached on it like the mesh lines and freed with it, made on the
 * first call that needs it and grown, collectively, when a call needs more.
 *
 * The window is two halves used in turn, one per chunk of a call (a counter kept with the
 * window, the same on every rank: every rank runs the same chunks). A chunk writes its half,
 * publishes it (ac_shm_publish: MPI_Win_sync, the library's MPI_Barrier on the communicator,
 * MPI_Win_sync), and reads it; a rank writes a chunk's half only after the barrier of the chunk
 * before, and reads it before it enters the barrier of the chunk after, which every other rank
 * must pass before the half is written again two chunks later. So one barrier a chunk is all
 * the synchronisation, across calls too.
 *
 * Where the window cannot be made (the library refuses, no memory) every rank learns it at the
 * same call (an agreement on the communicator) and the algorithm runs the library's collective
 * instead: the results do not change.
 *
 * Under SimGrid's SMPI nothing but messages has a simulated cost (the runs do not simulate
 * computation), so a copy through the window would be free. Every copy into or out of it is
 * therefore charged as the time it takes at the node's copy bandwidth, the platform's
 * `autocoll/shm-copy-bw` (bytes per second, a property of its root zone, platforms/README.md),
 * as simulated computation on the copying rank's core; on a platform without that property the
 * algorithms do not apply (ac_shm_available). Under a real MPI a copy takes its own time.
 */
#ifndef AC_COLL_SHM_H
#define AC_COLL_SHM_H

#include <mpi.h>
#include <stddef.h>

/* The bytes of one chunk: a bcast's whole chunk, a reduce's chunk of every rank's vector. */
enum { AC_SHM_CHUNK = 64 << 10 };

typedef struct ac_shm ac_shm;

/* 1 where the algorithms through shared memory can run: always under a real MPI; under SMPI
 * where the platform gives the copy bandwidth. Local, the same on every rank. */
int ac_shm_available(void);

/* The window of comm with halves of at least `half` bytes, made or grown (collectively: every
 * rank passes the same `half`); *shm NULL (and MPI_SUCCESS) where it cannot be made: run the
 * library's collective then. */
int ac_shm_get(MPI_Comm comm, size_t half, ac_shm **shm);

/* The bytes of one rank's slot in a chunk of blocks of `block` bytes (gather, scatter,
 * allgather through the window): at most AC_SHM_CHUNK, rounded up to a cache line. */
size_t ac_shm_slot(size_t block);

/* The same for an alltoall's blocks (alltoall_shm.c): a half holds p x p slots, so at most
 * AC_SHM_CHUNK / p bytes each (at least a cache line), at most `block`. */
size_t ac_shm_alltoall_slot(size_t block, int size);

/* The half of the next chunk. */
char *ac_shm_next(ac_shm *shm);

/* Makes what this rank wrote to the window visible to every rank of comm and what they wrote
 * to this one (a barrier). */
int ac_shm_publish(ac_shm *shm, MPI_Comm comm);

/* Charges a copy of `bytes` into or out of the window (SMPI; nothing under a real MPI). */
void ac_shm_copied(size_t bytes);

/* The reduction through the window of reduce_shm.c and allreduce_shm.c: chunk by chunk, every
 * rank copies its part of the vector into its slot, reduces its share of the chunk's elements
 * over every rank's slot in rank order (x0 op (x1 op (... op x(p-1))), into the last slot),
 * and the root (every rank where root is -1) copies the reduced chunk out. */
int ac_shm_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                  int root, MPI_Comm comm);

#endif
