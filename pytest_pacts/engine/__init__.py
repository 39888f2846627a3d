"""The engine: executor with the five-point gate, healing ladder, verdict and RCA.

It never imports pytest; the pytest layer calls :func:`pytest_pacts.engine.api.run_requirement`.
"""
