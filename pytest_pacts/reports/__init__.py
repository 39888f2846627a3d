"""Reports: what a run leaves behind for people and CI.

Everything here reads projections only (``RunRecord`` and store records), never engine
internals:

- :mod:`~pytest_pacts.reports.proposals`: a run's heal proposals and their self-heal gates;
- :mod:`~pytest_pacts.reports.junit`: the ``pacts_*`` JUnit properties;
- :mod:`~pytest_pacts.reports.html`: pytest-html fragments (step table, RCA box, badges);
- :mod:`~pytest_pacts.reports.artifacts`: ``verdict_<req_id>.json``, the JSONL step log,
  ``summary.md`` and the run index;
- :mod:`~pytest_pacts.reports.slo`: the SLOs over runs;
- :mod:`~pytest_pacts.reports.summary`: the terminal / Markdown / JSON run summary;
- :mod:`~pytest_pacts.reports.regressions`: what changed since the last passing run (trace
  bundles): the per-test HTML box, ``regressions.md``, ``pacts compare``'s text.

See ``docs/reports.md``.
"""
