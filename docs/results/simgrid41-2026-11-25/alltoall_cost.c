/* Cost of simulating many concurrent small messages under SimGrid SMPI.
 *
 *   alltoall_cost alltoall NCALLS BYTES   MPI_Alltoall of BYTES per block (MPI_BYTE), NCALLS times
 *   alltoall_cost fanout   NCALLS BYTES   rank 0 MPI_Isend BYTES to every other rank, then
 *                                         MPI_Waitall; the others MPI_Recv; NCALLS times
 *
 * Prints one line (rank 0): mode ranks ncalls bytes and the simulated time per call in
 * microseconds: (latest MPI_Wtime after the loop - earliest MPI_Wtime after the barrier that
 * precedes it, over all ranks) / NCALLS (SMPI's MPI_Wtime is the one global simulated clock),
 * and rank 0's own (end - start) / NCALLS. One untimed call precedes the barrier. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4) {
    if (rank == 0)
      fprintf(stderr, "usage: %s alltoall|fanout NCALLS BYTES\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const char* mode = argv[1];
  int ncalls       = atoi(argv[2]);
  int bytes        = atoi(argv[3]);
  int fanout       = strcmp(mode, "fanout") == 0;

  char* sbuf = malloc((size_t)bytes * size);
  char* rbuf = malloc((size_t)bytes * size);
  memset(sbuf, rank & 0xff, (size_t)bytes * size);
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * size);

  double t0 = 0.0;
  for (int it = -1; it < ncalls; it++) {
    if (it == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
    if (!fanout) {
      MPI_Alltoall(sbuf, bytes, MPI_BYTE, rbuf, bytes, MPI_BYTE, MPI_COMM_WORLD);
    } else if (rank == 0) {
      for (int r = 1; r < size; r++)
        MPI_Isend(sbuf + (size_t)r * bytes, bytes, MPI_BYTE, r, 7, MPI_COMM_WORLD, &reqs[r - 1]);
      MPI_Waitall(size - 1, reqs, MPI_STATUSES_IGNORE);
    } else {
      MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  double t1 = MPI_Wtime(), first = 0.0, last = 0.0;
  MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("RESULT mode=%s ranks=%d ncalls=%d bytes=%d sim_us_per_call=%.6f rank0_us_per_call=%.6f\n", mode, size,
           ncalls, bytes, (last - first) / ncalls * 1e6, (t1 - t0) / ncalls * 1e6);
  free(sbuf);
  free(rbuf);
  free(reqs);
  MPI_Finalize();
  return 0;
}
