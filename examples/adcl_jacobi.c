/*
 * adcl_jacobi.c - a 3-D Poisson solver (Jacobi iterations, 7-point stencil) on a Cartesian
 * process grid, written against ADCL.h only: the program of the ADCL paper's evaluation, as an
 * example and a benchmark.
 *
 *   adcl_jacobi NX NY NZ ITERATIONS [--no-check] [--no-compute]
 *
 * Each process owns NX x NY x NZ interior points of the global grid (MPI_Dims_create's process
 * grid, not periodic); -laplace(u) = f with u = 0 on the boundary, h = 1. One iteration: the
 * halo exchange of u through an ADCL request (its function selected at run time, or forced by
 * AUTOCOLL_ADCL_FUNCTION / config.adcl), then u_new = (six neighbours + f) / 6 on the interior,
 * then u = u_new. A timer covers each iteration, so selection judges the whole step.
 *
 * Unless --no-check: rank 0 gathers the solution and compares it with the same iterations done
 * serially on the global grid; the stencil is evaluated in the same order, so the results must
 * be bitwise equal. --no-compute skips the stencil and the copy (the halo exchange and the timer
 * only, and no check): a timing run under SimGrid with simulated computation off, where the
 * stencil costs host time but no simulated time. Prints "adcl_jacobi: ok" then, the time per
 * iteration, the winner and its attributes.
 */
#include <ADCL.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
    fprintf(stderr, "adcl_jacobi: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The source term at global interior point (gi, gj, gk), from 0. */
static double source(long gi, long gj, long gk)
{
    return 1.0 + 0.1 * (double)(gi % 7) + 0.01 * (double)(gj % 5) + 0.001 * (double)(gk % 3);
}

/* The 7-point update, one expression for the parallel and the serial solver. */
static inline double stencil(double xm, double xp, double ym, double yp, double zm, double zp,
                             double f)
{
    return (xm + xp + ym + yp + zm + zp + f) / 6.0;
}

/* The serial solver on the global grid (nx x ny x nz interior, zero boundary). */
static double *serial(long nx, long ny, long nz, int iterations)
{
    long sx = nx + 2, sy = ny + 2, sz = nz + 2, cells = sx * sy * sz;
    double *u = calloc((size_t)cells, sizeof *u), *v = calloc((size_t)cells, sizeof *v);
    if (!u || !v) die("out of memory for the serial reference");
#define AT(a, i, j, k) a[((i) * sy + (j)) * sz + (k)]
    for (int it = 0; it < iterations; it++) {
        for (long i = 1; i <= nx; i++)
            for (long j = 1; j <= ny; j++)
                for (long k = 1; k <= nz; k++)
                    AT(v, i, j, k) = stencil(AT(u, i - 1, j, k), AT(u, i + 1, j, k),
                                             AT(u, i, j - 1, k), AT(u, i, j + 1, k),
                                             AT(u, i, j, k - 1), AT(u, i, j, k + 1),
                                             source(i - 1, j - 1, k - 1));
        double *t = u;
        u = v;
        v = t;
    }
#undef AT
    free(v);
    return u;
}

int main(int argc, char **argv)
{
    int rank, size, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3], check = 1;
    MPI_Comm cart;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int compute = 1;
    if (argc < 5) die("usage: adcl_jacobi NX NY NZ ITERATIONS [--no-check] [--no-compute]");
    for (int a = 5; a < argc; a++) {
        if (strcmp(argv[a], "--no-check") == 0)
            check = 0;
        else if (strcmp(argv[a], "--no-compute") == 0)
            compute = check = 0;
        else
            die("usage: adcl_jacobi NX NY NZ ITERATIONS [--no-check] [--no-compute]");
    }
    int n[3] = {atoi(argv[1]), atoi(argv[2]), atoi(argv[3])}, iterations = atoi(argv[4]);
    if (n[0] < 1 || n[1] < 1 || n[2] < 1 || iterations < 0) die("sizes >= 1, iterations >= 0");

    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 3, coords);

    /* u with its halo of one cell (the boundary where there is no neighbour): an ADCL vector. */
    int vdims[3] = {n[0] + 2, n[1] + 2, n[2] + 2};
    double ***u, *unew = malloc((size_t)n[0] * n[1] * n[2] * sizeof *unew), *f = NULL;
    ADCL_Vmap vmap;
    ADCL_Vector vec;
    ADCL_Topology topo;
    ADCL_Request req;
    ADCL_Timer timer;
    if (!unew) die("out of memory");
    if (ADCL_Init() != ADCL_SUCCESS || ADCL_Vmap_halo_allocate(1, &vmap) != ADCL_SUCCESS ||
        ADCL_Vector_allocate_generic(3, vdims, 0, vmap, MPI_DOUBLE, &u, &vec) != ADCL_SUCCESS ||
        ADCL_Topology_create(cart, &topo) != ADCL_SUCCESS ||
        ADCL_Request_create(vec, topo, ADCL_FNCTSET_NEIGHBORHOOD, &req) != ADCL_SUCCESS ||
        ADCL_Timer_create(1, &req, &timer) != ADCL_SUCCESS)
        die("setting up ADCL failed");
    f = malloc((size_t)n[0] * n[1] * n[2] * sizeof *f);
    if (!f) die("out of memory");
    for (int i = 0; i < n[0]; i++)
        for (int j = 0; j < n[1]; j++)
            for (int k = 0; k < n[2]; k++)
                f[((long)i * n[1] + j) * n[2] + k] =
                    source((long)coords[0] * n[0] + i, (long)coords[1] * n[1] + j,
                           (long)coords[2] * n[2] + k);

    MPI_Barrier(cart);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iterations; it++) {
        ADCL_Timer_start(timer);
        if (ADCL_Request_start(req) != ADCL_SUCCESS) die("the halo exchange failed");
        for (int i = 1; compute && i <= n[0]; i++)
            for (int j = 1; j <= n[1]; j++)
                for (int k = 1; k <= n[2]; k++)
                    unew[(((long)i - 1) * n[1] + j - 1) * n[2] + k - 1] =
                        stencil(u[i - 1][j][k], u[i + 1][j][k], u[i][j - 1][k], u[i][j + 1][k],
                                u[i][j][k - 1], u[i][j][k + 1],
                                f[(((long)i - 1) * n[1] + j - 1) * n[2] + k - 1]);
        for (int i = 1; compute && i <= n[0]; i++)
            for (int j = 1; j <= n[1]; j++)
                memcpy(&u[i][j][1], &unew[(((long)i - 1) * n[1] + j - 1) * n[2]],
                       (size_t)n[2] * sizeof(double));
        ADCL_Timer_stop(timer);
    }
    double seconds = MPI_Wtime() - t0, slowest;
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, cart);

    int ok = 1;
    if (check) {
        /* Gather the interiors (unew holds the last one) and compare on rank 0. */
        long block = (long)n[0] * n[1] * n[2];
        double *all = rank == 0 ? malloc((size_t)(block * size) * sizeof *all) : NULL;
        for (int i = 0; i < n[0]; i++)
            for (int j = 0; j < n[1]; j++)
                memcpy(&unew[((long)i * n[1] + j) * n[2]], &u[i + 1][j + 1][1],
                       (size_t)n[2] * sizeof(double));
        MPI_Gather(unew, (int)block, MPI_DOUBLE, all, (int)block, MPI_DOUBLE, 0, cart);
        if (rank == 0) {
            long gx = (long)dims[0] * n[0], gy = (long)dims[1] * n[1], gz = (long)dims[2] * n[2];
            double *ref = serial(gx, gy, gz, iterations), worst = 0;
            for (int r = 0; r < size; r++) {
                int c[3];
                MPI_Cart_coords(cart, r, 3, c);
                for (int i = 0; i < n[0]; i++)
                    for (int j = 0; j < n[1]; j++)
                        for (int k = 0; k < n[2]; k++) {
                            long gi = (long)c[0] * n[0] + i + 1, gj = (long)c[1] * n[1] + j + 1,
                                 gk = (long)c[2] * n[2] + k + 1;
                            double mine = all[r * block + ((long)i * n[1] + j) * n[2] + k];
                            double want = ref[(gi * (gy + 2) + gj) * (gz + 2) + gk];
                            if (mine != want) {
                                ok = 0;
                                if (mine - want > worst || want - mine > worst)
                                    worst = mine > want ? mine - want : want - mine;
                            }
                        }
            }
            if (!ok) fprintf(stderr, "adcl_jacobi: differs from the serial solver by %g\n", worst);
            free(ref);
            free(all);
        }
        MPI_Bcast(&ok, 1, MPI_INT, 0, cart);
    }

    char *name = NULL, **attrs = NULL, **values = NULL;
    int nattrs = 0;
    ADCL_Request_get_curr_function(req, &name, &attrs, &nattrs, &values, NULL);
    if (rank == 0) {
        if (ok && check) printf("adcl_jacobi: ok\n");
        printf("adcl_jacobi: %d processes (%dx%dx%d), %dx%dx%d points each, %d iterations, "
               "%.9f s per iteration, function %s (",
               size, dims[0], dims[1], dims[2], n[0], n[1], n[2], iterations,
               iterations ? slowest / iterations : 0.0, name);
        for (int a = 0; a < nattrs; a++) printf("%s%s=%s", a ? " " : "", attrs[a], values[a]);
        printf(")\n");
    }
    free(name);
    free(attrs);
    free(values);
    ADCL_Timer_free(&timer);
    ADCL_Request_free(&req);
    ADCL_Topology_free(&topo);
    ADCL_Vector_free(&vec);
    ADCL_Vmap_free(&vmap);
    ADCL_Finalize();
    free(unew);
    free(f);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return ok ? 0 : 1;
}
