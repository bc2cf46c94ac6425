"""The kinds of JSON file autocoll writes and reads: the "schema" name and "version" of each,
defined here once and imported by every module that writes or checks one."""

BENCH_SCHEMA = "autocoll-bench"        # a benchmark cell (bench/autocoll_bench.c --out)
BENCH_VERSION = 1
TABLE_SCHEMA = "autocoll-table"        # a configuration table (`autocoll tune`, docs/table.md)
TABLE_VERSION = 2                      # version 2: a rule's "algorithms" (version 1: "algorithm")
TABLE_VERSIONS = (1, 2)                # the versions readers accept
REPORT_SCHEMA = "autocoll-report"      # the layer's end-of-run report (AUTOCOLL_REPORT=<path>)
REPORT_VERSION = 1
INFO_SCHEMA = "autocoll-info"          # the registry and settings (`autocoll-info --json`)
INFO_VERSION = 1
PROGRAMS_SCHEMA = "autocoll-programs"  # `autocoll programs --out`: programs.json
PROGRAMS_VERSION = 1
CLUSTER_SCHEMA = "autocoll-cluster"    # an emulated cluster's state file (`autocoll cluster`)
CLUSTER_VERSION = 1
CLUSTER_CHECK_SCHEMA = "autocoll-cluster-check"  # `autocoll cluster check --json`
CLUSTER_CHECK_VERSION = 1
REPLAY_SCHEMA = "autocoll-replay"      # `autocoll simgrid replay --json`
REPLAY_VERSION = 1
ADCL_TABLES_SCHEMA = "autocoll-adcl-tables"  # a cell of `autocoll simgrid adcl` (ADCL's tables)
ADCL_TABLES_VERSION = 1
