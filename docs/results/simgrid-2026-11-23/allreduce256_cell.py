#!/usr/bin/env python3
"""allreduce256_cell.py PLATFORM [SHARE] [--bytes N] - the 256-rank allreduce cell of N bytes
(default 8) as run.sh allreduce256 makes the 8-byte one (`--sync clock`, into
allreduce256clock/PLATFORM/), less `rabenseifner_simple`, its algorithms dealt into 8 shares
as `autocoll bench --jobs 8` deals them and simulated one share at a time (alltoall256_cell.py's
cell_in_shares): a share that finishes is kept (part<k>of8.json, the names `JOBS=8 run.sh
allreduce256` resumes from; part6of8-without.json for the share that held
rabenseifner_simple), so a cell that needs more than two hours of one core (torus-3d's 8-byte
one with it) can be made over several sessions. With SHARE, that share alone; without, every
share not done, then the merge.

`rabenseifner_simple` ends with the simple all-gather, p x (p - 1) flows in flight, as the
alltoall's `simple` that alltoall256_cell.py leaves out: on torus-3d its share ran for more
than 40 minutes without finishing (session 26), and on four-switch-gbe the whole cell aborted
SimGrid 3.32's solver (session 20), as `simple`'s share of the alltoall did there."""
from alltoall256_cell import cell_main

EXCLUDED = {
    "rabenseifner_simple": "not simulated: its simple all-gather keeps p x (p - 1) flows in "
                           "flight (its share ran more than 40 minutes without finishing on "
                           "torus-3d at 256 ranks)",
}

if __name__ == "__main__":
    cell_main(__doc__, "allreduce", "clock", "allreduce256clock", EXCLUDED)
