! collectives_mpi.f90 - the collectives through the mpi module (body: collectives_body.inc).
! run_lang.py checks the layer's report: each call is counted exactly once.
program collectives_mpi
    use mpi
    implicit none
    include 'collectives_body.inc'
end program collectives_mpi

include 'collectives_subroutines.inc'
