"""Benchmark cells (`autocoll bench`, bench/autocoll_bench.c's JSON): their file names and
whether a file is one."""

from .jsonfile import schema_of
from .schemas import BENCH_SCHEMA, BENCH_VERSION


def size_label(nbytes):
    for unit, div in (("M", 1024 * 1024), ("K", 1024)):
        if nbytes >= div and nbytes % div == 0:
            return f"{nbytes // div}{unit}"
    return str(nbytes)


def cell_name(coll, nbytes, ranks, selector=None):
    return f"{coll}-{size_label(nbytes)}-np{ranks}{'-' + selector if selector else ''}.json"


def valid_result(path):
    return schema_of(path) == (BENCH_SCHEMA, BENCH_VERSION)
