"""Settings checked at MPI_Init, in the manner of Open MPI's MCA parameters: an AUTOCOLL_*
variable no setting declares is reported once, by rank 0, with the closest declared name; an
invalid or out-of-range value is reported once with the value used instead, never clamped
silently; the test tooling's own variables pass without a word."""

import pytest

from conftest import MPIS, run_mpi

PROGRAM = "tests/mpi/strategy_agree"  # any MPI program that exits 0; 20 iterations


def warnings(run):
    return [line for line in run.stderr.splitlines() if "warning:" in line]


@pytest.mark.parametrize("mpi", MPIS)
def test_unknown_setting_is_reported_with_the_closest_name(mpi, tmp_path):
    run = run_mpi(mpi, 3, PROGRAM, tmp_path, report=False, args=["20"],
                  env={"AUTOCOLL_STRATGY": "race", "AUTOCOLL_WHATEVER": "1"})
    assert run.rc == 0, run.stderr
    assert sorted(warnings(run)) == [
        "autocoll[0]: warning: AUTOCOLL_STRATGY=race is not an autocoll setting "
        "(did you mean AUTOCOLL_STRATEGY?); ignored",
        "autocoll[0]: warning: AUTOCOLL_WHATEVER=1 is not an autocoll setting "
        "(autocoll-info --settings lists them); ignored"]


def test_unknown_setting_of_any_length_is_reported(tmp_path):
    """A name longer than any setting (here 300 characters) is reported by its start."""
    long_name = "AUTOCOLL_" + "X" * 291
    run = run_mpi("openmpi", 2, PROGRAM, tmp_path, report=False, args=["20"],
                  env={long_name: "1"})
    assert run.rc == 0, run.stderr
    assert warnings(run) == [
        f"autocoll[0]: warning: {long_name[:124]}...=1 is not an autocoll setting "
        "(autocoll-info --settings lists them); ignored"], run.stderr


def test_out_of_range_value_is_reported_with_the_value_used(tmp_path):
    """Read by a strategy that is not the one in use, and still reported at MPI_Init."""
    run = run_mpi("openmpi", 2, PROGRAM, tmp_path, report=False, args=["20"],
                  env={"AUTOCOLL_STAR_ITER": "-3", "AUTOCOLL_STRATEGY": "race"})
    assert run.rc == 0, run.stderr
    assert warnings(run) == [
        "autocoll[0]: warning: AUTOCOLL_STAR_ITER=-3 is invalid (it takes 1 <= n <= 1000); "
        "using the default 10"]


def test_the_tooling_and_declared_settings_pass_silently(tmp_path):
    """run_mpi passes AUTOCOLL_TEST_PRELOAD and AUTOCOLL_REPORT; add a tooling name and valid
    settings."""
    run = run_mpi("openmpi", 2, PROGRAM, tmp_path, args=["20"],
                  env={"AUTOCOLL_TEST_LONG": "0", "AUTOCOLL_VENV": ".venv",
                       "AUTOCOLL_STRATEGY": "race", "AUTOCOLL_STAR_ITER": "5"})
    assert run.rc == 0, run.stderr
    assert warnings(run) == []


def test_unknown_forced_algorithm_is_reported_with_the_closest_name(tmp_path):
    run = run_mpi("openmpi", 2, PROGRAM, tmp_path, report=False, args=["20"],
                  env={"AUTOCOLL_ALLREDUCE": "rign", "AUTOCOLL_BCAST": "fastest"})
    assert run.rc == 0, run.stderr
    assert sorted(warnings(run)) == [
        "autocoll[0]: warning: AUTOCOLL_ALLREDUCE=rign: no such allreduce algorithm (did you "
        "mean ring?); using native",
        "autocoll[0]: warning: AUTOCOLL_BCAST=fastest: no such bcast algorithm (see "
        "autocoll-info); using native"]
