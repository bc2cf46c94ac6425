/* comm_costs.c - communicator creation timed under SMPI (comm_costs.sh runs it). */
#include <mpi.h>
#include <stdio.h>
static double t0;
static void mark(const char *what, MPI_Comm c) {
    double t = MPI_Wtime() - t0, m;
    MPI_Reduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (r == 0) printf("%-40s %10.1f us\n", what, m * 1e6);
    MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
}
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, p, x = 1, y; MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm d, d2, s, s2, g; MPI_Group wg;
    MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime();
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); mark("allreduce world 1st", 0);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); mark("allreduce world 2nd", 0);
    MPI_Comm_dup(MPI_COMM_WORLD, &d); mark("comm_dup", 0);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MIN, d); mark("allreduce dup 1st", 0);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MIN, d); mark("allreduce dup 2nd", 0);
    MPI_Comm_dup(d, &d2); mark("comm_dup of dup", 0);
    MPI_Comm_split(d, r / 16, r % 16, &s); mark("comm_split 16", 0);
    MPI_Comm_split(d, r % 16, r / 16, &s2); mark("comm_split 16 stride", 0);
    MPI_Sendrecv(&x, 1, MPI_INT, (r+1)%p, 0, &y, 1, MPI_INT, (r+p-1)%p, 0, d, MPI_STATUS_IGNORE); mark("sendrecv dup", 0);
    MPI_Comm_group(d, &wg); int ranks[16]; for (int i = 0; i < 16; i++) ranks[i] = (r/16)*16 + i;
    MPI_Group sub; MPI_Group_incl(wg, 16, ranks, &sub);
    MPI_Comm_create_group(d, sub, 7, &g); mark("comm_create_group 16", 0);
    MPI_Comm c; MPI_Comm_create(d, sub, &c); mark("comm_create 16", 0);
    MPI_Group wg2; MPI_Comm_group(MPI_COMM_WORLD, &wg2); MPI_Comm full; MPI_Comm_create_group(MPI_COMM_WORLD, wg2, 9, &full); mark("comm_create_group world", 0);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MIN, full); mark("allreduce full 1st", 0);
    MPI_Comm full2; MPI_Comm_create_group(full, wg2, 9, &full2); mark("comm_create_group full", 0);
    MPI_Comm_split(full, 0, r, &s); mark("comm_split whole", 0);
    MPI_Comm h; MPI_Comm_create(full, wg2, &h); mark("comm_create whole", 0);

    MPI_Finalize();
}
