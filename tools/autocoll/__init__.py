"""Tools for autocoll: registry inspection, end-of-run reports, benchmarks, tuning, plots and
simulated or emulated clusters (the `autocoll` command).

The package is in layers; a module imports only from its own layer or the ones below it, never
in a circle, and never inside a function (tests/tools/test_python_layers.py checks all three;
docs/architecture.md, "Python tools", says what each module holds). Bottom first:

  formats/   what the files are and where things are: schemas.py (the JSON schema names and
             versions), jsonfile.py, cells.py (benchmark cells' names), registry.py (the
             registry's JSON), platforms.py (platforms/'s XML) and paths.py, the one place that
             finds the repository, the builds ($AUTOCOLL_BUILD, build/<mpi>, PATH) and the
             platforms
  run/       running programs: bench.py (the matrix runner), simgrid.py (SMPI), cluster.py (the
             emulated cluster), programs.py (hpcc, LAMMPS), adcl.py (ADCL's solver under
             SMPI), info.py (autocoll-info), progress.py
  analysis/  turning results into tables, models and reports: tune.py (the sweep and the
             configuration table), generalise.py, export.py, report.py, benchreport.py,
             programsreport.py, sweepseries.py, simreport.py, simreplay.py, simadcl.py; a
             module here may have run/ make what it analyses (tune.py's sweep)
  plot/      drawing, with matplotlib: plotstyle.py, plot.py, benchplot.py, simplot.py
  commands/  one module per `autocoll` subcommand: its arguments and its entry point (main),
             calling the layers below
  cli.py, manpages.py, __main__.py   the command line (dispatching to commands/) and the
             manual pages built from its parsers

Only optional third-party packages are imported inside functions, on purpose: matplotlib
(plot/plotstyle.py) and scikit-learn (analysis/generalise.py) are slow to import and needed by
a few commands; tqdm (run/progress.py, a progress bar on a terminal only) is optional, so
that the package imports without it.
"""

__version__ = "0.1.0"
