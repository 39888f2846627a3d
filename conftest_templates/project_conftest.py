"""pytest settings for this project's requirement sheets (written by ``pacts init``).

Requirement URLs that start with ``/`` are opened relative to pytest-playwright's base URL.
Give it on the command line::

    pytest requirements/ --base-url https://staging.example.com

or fix it for the project with ``base_url = https://staging.example.com`` in pytest.ini
or by uncommenting the fixture below (discovery before the tests and the run both use
either). Context options for every requirement (locale, headers, a saved session) go in
pytest-playwright's ``browser_context_args`` fixture, routes and other customisation of a
new context in the ``pytest_pacts_configure_context`` hook: discovery and the tests use
both (docs/user-guide.md, "Browser context"). Values the steps read from the environment
(``{{env.NAME}}``) are secrets: they are shown as *** in every report.
"""

from __future__ import annotations

# import pytest
#
#
# @pytest.fixture(scope="session")
# def base_url() -> str:
#     return "https://staging.example.com"
