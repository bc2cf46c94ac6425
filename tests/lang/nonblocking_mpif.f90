! nonblocking_mpif.f90 - the nonblocking collectives and the request completion calls through
! include 'mpif.h' (body: nonblocking_body.inc).
! run_lang.py checks the layer's report: each call is counted exactly once.
program nonblocking_mpif
    implicit none
    include 'mpif.h'
    include 'nonblocking_body.inc'
end program nonblocking_mpif

include 'nonblocking_subroutines.inc'
