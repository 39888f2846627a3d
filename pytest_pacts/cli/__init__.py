"""The ``pacts`` command line (SPEC.md §13). Each subcommand is one module in this package."""
