/* allreduce_operand_order: the MPI program of tests/tools/test_export.py. It shows which
 * allreduce algorithm the native library ran, without timing.
 *
 * Every element of rank r is a quiet NaN whose payload is r + 1 (plus 16 x (i mod 4)). With
 * two NaN operands, an x86-64 addition returns the first one's payload, so MPI_SUM of these
 * vectors records, per element, which rank's operand came first in the additions that made
 * it: recursive doubling, a ring and a reduce-scatter combine blocks in different orders and
 * leave different payloads. Rank 0 prints the payloads (hex, low 16 bits), one per element.
 *   allreduce_operand_order [count (default 16)]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, count = argc > 1 ? atoi(argv[1]) : 16;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double *in = malloc((size_t)count * sizeof *in), *out = malloc((size_t)count * sizeof *out);
    if (!in || !out) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < count; i++) {
        uint64_t bits = 0x7ff8000000000000ull | (uint64_t)(rank + 1 + 16 * (i % 4));
        memcpy(&in[i], &bits, sizeof bits);
    }
    MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int i = 0; i < count; i++) {
            uint64_t bits;
            memcpy(&bits, &out[i], sizeof bits);
            printf("%s%llx", i ? " " : "", (unsigned long long)(bits & 0xffff));
        }
        printf("\n");
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
