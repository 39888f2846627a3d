"""The bundled demo app: static pages for two releases and a loopback server.

See ``README.md`` beside this file for the pages, users and every v1 -> v2 drift.
"""

from __future__ import annotations

from pytest_pacts.demo_app.server import RELEASES, DemoServer

__all__ = ["RELEASES", "DemoServer"]
