"""pytest-pacts: requirement sheets in, find-first, gated, self-healing browser tests out.

The package tree follows the pipeline:

- ``models``     data shared by every stage (depends on nothing)
- ``planner``    requirement files -> validated, block-expanded plans with a plan hash
- ``discovery``  find-first locator discovery (one in-page scan per page state)
- ``engine``     executor with the five-point gate, healing ladder, verdict and RCA
- ``governance`` patch contract, heal proposals and the self-heal gate
- ``store``      SQLite / PostgreSQL persistence (the only place with SQL)
- ``reports``    JUnit, pytest-html, per-requirement artifacts (read projections)
- ``pytest_plugin`` the thin pytest adapter; ``cli`` the ``pacts`` command
"""

__version__ = "0.1.0"
