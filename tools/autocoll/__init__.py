"""Tools for autocoll: registry inspection and end-of-run reports."""

__version__ = "0.1.0"
