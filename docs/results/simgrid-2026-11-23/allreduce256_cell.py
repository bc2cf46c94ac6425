#!/usr/bin/env python3
"""allreduce256_cell.py PLATFORM [SHARE] - the 256-rank allreduce cell of 8 B as run.sh
allreduce256 makes it (`--sync clock`, into allreduce256clock/PLATFORM/), its algorithms dealt
into 8 shares as `autocoll bench --jobs 8` deals them and simulated one share at a time
(alltoall256_cell.py's cell_in_shares, nothing left out): a share that finishes is kept
(part<k>of8.json, the names `JOBS=8 run.sh allreduce256` resumes from), so a cell that needs
more than two hours of one core (torus-3d's) can be made over several sessions, and a share
that crashes SimGrid (four-switch-gbe's) shows which algorithms it holds. With SHARE, that
share alone; without, every share not done, then the merge."""
import sys

from alltoall256_cell import cell_in_shares

if __name__ == "__main__":
    cell_in_shares("allreduce", "clock", "allreduce256clock", {}, sys.argv[1],
                   int(sys.argv[2]) if len(sys.argv) > 2 else None)
