// call_sites.cpp - MPI_Allreduce from a member function of a class in a namespace, built without
// debug information (call_sites_cxx): the report names the site's function from the symbol
// table, whose C++ name is mangled (_ZN6solver4Halo8exchangeE...); it must read
// solver::Halo::exchange(...) (tests/tools/test_profile.py). Results are checked.
//   call_sites_cxx [iterations]   (default 200)
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace solver {
struct Halo {
    MPI_Comm comm;
    // Not inlined, so that the symbol containing the call is this member function.
    __attribute__((noinline)) long exchange(int iterations);
};

long Halo::exchange(int iterations)
{
    int rank, size;
    long wrong = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int it = 0; it < iterations; it++) {
        int mine[2] = {rank, it}, sum[2];
        MPI_Allreduce(mine, sum, 2, MPI_INT, MPI_SUM, comm);
        wrong += sum[0] != size * (size - 1) / 2 || sum[1] != size * it;
    }
    return wrong;
}
} // namespace solver

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int iterations = argc > 1 ? std::atoi(argv[1]) : 200, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    solver::Halo halo{MPI_COMM_WORLD};
    long wrong = halo.exchange(iterations), total = 0;
    MPI_Reduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("call_sites_cxx: %d iterations, %s\n", iterations, total ? "WRONG" : "ok");
    MPI_Finalize();
    return total != 0;
}
