/*
 * call_cost.c - the cost of one small collective call: a tight loop of MPI_Allreduce of one
 * double (8 bytes), or of MPI_Iallreduce and its MPI_Wait (`nonblocking`), no computation
 * between calls, and the mean time per call from rank 0.
 * Linked without autocoll: run it natively, then with LD_PRELOAD=libautocoll.so and a
 * strategy, and compare (the layer's settled cost per call is the difference):
 *
 *   mpirun -n 1 build/openmpi/bench/call_cost 2000000
 *   mpirun -n 1 -x LD_PRELOAD=$PWD/build/openmpi/libautocoll.so -x AUTOCOLL_STRATEGY=race \
 *       build/openmpi/bench/call_cost 2000000
 *
 *   call_cost [calls [blocking|nonblocking]]   (default 2000000 blocking)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long calls = argc > 1 ? atol(argv[1]) : 2000000;
    int nonblocking = argc > 2 && !strcmp(argv[2], "nonblocking");
    if (argc > 2 && !nonblocking && strcmp(argv[2], "blocking")) {
        fprintf(stderr, "call_cost: the second argument is blocking or nonblocking\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double x = 1.0, y = 0.0;
    MPI_Request request;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (calls < 1) calls = 1;
    double start = MPI_Wtime();
    for (long i = 0; i < calls; i++) {
        if (nonblocking) {
            MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        } else {
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    double seconds = MPI_Wtime() - start;
    if (rank == 0)
        printf("call_cost: %ld %s calls, %.3f us per call\n", calls,
               nonblocking ? "nonblocking" : "blocking", 1e6 * seconds / calls);
    MPI_Finalize();
    return 0;
}
