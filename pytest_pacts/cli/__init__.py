"""The ``pacts`` command line. Each subcommand is one module in this package."""
