"""``pacts serve``: the web observer, a dashboard and JSON API over the store.

Layout by role: :mod:`~pytest_pacts.web.projection` (the only package here that touches
core types) maps store rows to the plain DTOs of :mod:`~pytest_pacts.web.dto`;
:mod:`~pytest_pacts.web.api` and :mod:`~pytest_pacts.web.pages` serve them as JSON and as
server-rendered pages; :mod:`~pytest_pacts.web.launcher` starts pytest runs;
:mod:`~pytest_pacts.web.security` decides who may write and which files may be served;
:mod:`~pytest_pacts.web.server` runs it all with uvicorn. Needs the ``serve`` extra
(``pip install 'pytest-pacts[serve]'``). See ``docs/observer.md``.
"""
