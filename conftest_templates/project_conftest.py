"""pytest settings for this project's requirement sheets (written by ``pacts init``).

Requirement URLs that start with ``/`` are opened relative to pytest-playwright's base URL.
Give it on the command line::

    pytest requirements/ --base-url https://staging.example.com

or fix it for the project with ``base_url = https://staging.example.com`` in pytest.ini
(collection-time discovery and the run both use it), or by uncommenting the fixture below
(the run uses it; discovery then happens on each requirement's first run). Values the steps
read from the environment (``{{env.NAME}}``) are secrets: they are shown as *** in every
report.
"""

from __future__ import annotations

# import pytest
#
#
# @pytest.fixture(scope="session")
# def base_url() -> str:
#     return "https://staging.example.com"
