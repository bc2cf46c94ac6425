#!/usr/bin/env python3
"""reduce256_cell.py PLATFORM [SHARE] [--bytes N] - the 256-rank reduce cell of N bytes (default
8), native and every fixed algorithm, with `--sync clock` (a rooted collective: every call
starts at one instant of SMPI's clock, README.md "256 and 1024 ranks with every call started at
one instant"), into reduce256clock/PLATFORM/, dealt into 8 shares and simulated one share at a
time as allreduce256_cell.py does (alltoall256_cell.py's cell_in_shares; nothing left out)."""
from alltoall256_cell import cell_main

if __name__ == "__main__":
    cell_main(__doc__, "reduce", "clock", "reduce256clock", {})
