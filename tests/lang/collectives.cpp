// collectives.cpp - the collectives from C++: the C API with MPI_IN_PLACE wherever MPI allows
// it, MPI_BOTTOM and a non-commutative user-defined operation, then the MPI-2 C++ bindings
// (MPI::COMM_WORLD.Allreduce, .Barrier), which both libraries still ship; every result is
// checked. run_lang.py checks the layer's report: each call is counted exactly once.
// Calls per rank: allreduce 4, alltoall 1, alltoallv 1, allgather 1, allgatherv 1, bcast 2,
// reduce 1, gather 1, scatter 1, reduce_scatter 1, reduce_scatter_block 1, barrier 2.
// With the argument "thread" it initialises with MPI_Init_thread.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int errors = 0;

void expect(bool ok, const char *what)
{
    if (!ok) {
        errors++;
        std::printf("collectives_cxx: wrong result: %s\n", what);
    }
}

// A non-commutative, associative operation: a o b = a (the result is rank 0's operand).
void left_projection(void *in, void *inout, int *len, MPI_Datatype *)
{
    std::memcpy(inout, in, sizeof(int) * static_cast<size_t>(*len));
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "thread") == 0) {
        int provided = -1;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
        expect(provided >= MPI_THREAD_SINGLE, "init_thread");
    } else {
        MPI_Init(&argc, &argv);
    }
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm w = MPI_COMM_WORLD;
    std::vector<int> sa(4 * p * p), ra(4 * p * p), sc(p), sd(p), rc(p), rd(p);
    int ia[5], ib[5];
    double da[5];

    // allreduce: sum, in place max, user operation
    for (int i = 0; i < 5; i++) {
        ia[i] = rank + i;
        da[i] = rank * i;
    }
    MPI_Allreduce(ia, ib, 5, MPI_INT, MPI_SUM, w);
    for (int i = 0; i < 5; i++) expect(ib[i] == p * (p - 1) / 2 + p * i, "allreduce sum");
    MPI_Allreduce(MPI_IN_PLACE, da, 5, MPI_DOUBLE, MPI_MAX, w);
    for (int i = 0; i < 5; i++) expect(da[i] == (p - 1) * i, "allreduce in place max");
    MPI_Op op;
    MPI_Op_create(left_projection, 0, &op);
    for (int i = 0; i < 5; i++) ia[i] = rank * 10 + i;
    MPI_Allreduce(ia, ib, 5, MPI_INT, op, w);
    for (int i = 0; i < 5; i++) expect(ib[i] == i, "allreduce user op");
    MPI_Op_free(&op);

    // alltoall: element j goes to rank j
    for (int j = 0; j < p; j++) sa[j] = rank * 100 + j;
    MPI_Alltoall(sa.data(), 1, MPI_INT, ra.data(), 1, MPI_INT, w);
    for (int j = 0; j < p; j++) expect(ra[j] == j * 100 + rank, "alltoall");

    // alltoallv: rank r sends r+j+1 elements to rank j
    int total = 0;
    for (int j = 0; j < p; j++) {
        sc[j] = rank + j + 1;
        sd[j] = total;
        total += sc[j];
    }
    for (int j = 0; j < p; j++)
        for (int k = 0; k < sc[j]; k++) sa[sd[j] + k] = rank * 1000 + j * 10 + k;
    MPI_Alltoallv(sa.data(), sc.data(), sd.data(), MPI_INT, ra.data(), sc.data(), sd.data(),
                  MPI_INT, w);
    for (int j = 0; j < p; j++)
        for (int k = 0; k < sc[j]; k++)
            expect(ra[sd[j] + k] == j * 1000 + rank * 10 + k, "alltoallv");

    // allgather in place
    for (int j = 0; j < p; j++) ra[j] = -1;
    ra[rank] = rank * 7 + 1;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ra.data(), 1, MPI_INT, w);
    for (int j = 0; j < p; j++) expect(ra[j] == j * 7 + 1, "allgather in place");

    // allgatherv: rank r contributes r+1 copies of r
    total = 0;
    for (int j = 0; j < p; j++) {
        rc[j] = j + 1;
        rd[j] = total;
        total += rc[j];
    }
    for (int k = 0; k <= rank; k++) sa[k] = rank;
    MPI_Allgatherv(sa.data(), rank + 1, MPI_INT, ra.data(), rc.data(), rd.data(), MPI_INT, w);
    for (int j = 0; j < p; j++)
        for (int k = 0; k < rc[j]; k++) expect(ra[rd[j] + k] == j, "allgatherv");

    // bcast from rank 1 (rank 0 on one process), then from rank 0 through MPI_BOTTOM
    int root = 1 % p;
    for (int i = 0; i < 5; i++) ia[i] = rank == root ? 42 + i : 0;
    MPI_Bcast(ia, 5, MPI_INT, root, w);
    for (int i = 0; i < 5; i++) expect(ia[i] == 42 + i, "bcast");
    int bb[3] = {0, 0, 0};
    if (rank == 0) bb[0] = 7, bb[1] = 8, bb[2] = 9;
    MPI_Aint addr;
    int blen = 3;
    MPI_Datatype abs_type;
    MPI_Get_address(bb, &addr);
    MPI_Type_create_hindexed(1, &blen, &addr, MPI_INT, &abs_type);
    MPI_Type_commit(&abs_type);
    MPI_Bcast(MPI_BOTTOM, 1, abs_type, 0, w);
    MPI_Type_free(&abs_type);
    expect(bb[0] == 7 && bb[1] == 8 && bb[2] == 9, "bcast MPI_BOTTOM");

    // reduce to the last rank, in place at the root
    root = p - 1;
    for (int i = 0; i < 5; i++) ia[i] = rank + i;
    if (rank == root) {
        MPI_Reduce(MPI_IN_PLACE, ia, 5, MPI_INT, MPI_SUM, root, w);
        for (int i = 0; i < 5; i++) expect(ia[i] == p * (p - 1) / 2 + p * i, "reduce in place");
    } else {
        MPI_Reduce(ia, ib, 5, MPI_INT, MPI_SUM, root, w);
    }

    // gather to rank 0, in place at the root
    if (rank == 0) {
        for (int j = 0; j < p; j++) ra[j] = -1;
        ra[0] = 5;
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ra.data(), 1, MPI_INT, 0, w);
        for (int j = 0; j < p; j++) expect(ra[j] == j * 3 + 5, "gather in place");
    } else {
        ia[0] = rank * 3 + 5;
        MPI_Gather(ia, 1, MPI_INT, ra.data(), 1, MPI_INT, 0, w);
    }

    // scatter from rank 0, in place at the root: two elements each
    if (rank == 0) {
        for (int j = 0; j < p; j++) sa[2 * j] = j * 11 + 2, sa[2 * j + 1] = j * 11 + 3;
        MPI_Scatter(sa.data(), 2, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, w);
        expect(sa[0] == 2 && sa[1] == 3, "scatter in place");
    } else {
        MPI_Scatter(sa.data(), 2, MPI_INT, ib, 2, MPI_INT, 0, w);
        expect(ib[0] == rank * 11 + 2 && ib[1] == rank * 11 + 3, "scatter");
    }

    // reduce_scatter: rank j gets j+1 elements
    total = p * (p + 1) / 2;
    for (int k = 0; k < total; k++) sa[k] = rank + k;
    MPI_Reduce_scatter(sa.data(), ra.data(), rc.data(), MPI_INT, MPI_SUM, w);
    for (int k = 0; k <= rank; k++)
        expect(ra[k] == p * (p - 1) / 2 + p * (rd[rank] + k), "reduce_scatter");

    // reduce_scatter_block in place: two elements each
    for (int k = 0; k < 2 * p; k++) sa[k] = rank * (k + 1);
    MPI_Reduce_scatter_block(MPI_IN_PLACE, sa.data(), 2, MPI_INT, MPI_SUM, w);
    for (int k = 0; k < 2; k++)
        expect(sa[k] == (2 * rank + k + 1) * p * (p - 1) / 2, "reduce_scatter_block in place");

    expect(MPI_Barrier(w) == MPI_SUCCESS, "barrier");

    // The MPI-2 C++ bindings: inline functions that call MPI_*.
    for (int i = 0; i < 5; i++) ia[i] = rank + i;
    MPI::COMM_WORLD.Allreduce(MPI::IN_PLACE, ia, 5, MPI::INT, MPI::SUM);
    for (int i = 0; i < 5; i++) expect(ia[i] == p * (p - 1) / 2 + p * i, "C++ Allreduce in place");
    MPI::COMM_WORLD.Barrier();

    if (errors) {
        std::printf("collectives_cxx: rank %d: %d errors\n", rank, errors);
        MPI_Abort(w, 1);
    }
    if (rank == 0) std::printf("collectives_cxx: all results correct\n");
    MPI_Finalize();
    return 0;
}
