"""The discovery tests use ``tab`` (tests/conftest.py): one Chromium per module, a fresh
context per test. The browser comes from pytest-playwright's session ``playwright`` fixture
(so these modules coexist with others that use it), launched with ``launch_options()``.
Fixture pages are the tests' own small HTML documents (``page.set_content``), each element
of interest carrying an ``id`` so a test asserts *which* element was chosen, not just that
one was.
"""
