! collectives_mpif.f90 - the collectives through include 'mpif.h' (body: collectives_body.inc).
! run_lang.py checks the layer's report: each call is counted exactly once.
program collectives_mpif
    implicit none
    include 'mpif.h'
    include 'collectives_body.inc'
end program collectives_mpif

include 'collectives_subroutines.inc'
