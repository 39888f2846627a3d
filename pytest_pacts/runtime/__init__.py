"""The in-page runtime: what runs in the page, and every call into it.

Below discovery and the engine (tests/test_layering.py): it imports nothing of the package
but the error root and the settings, and both sides call the page through it. Its modules:

- ``js/``: the JavaScript modules (discovery's API, the change watch, the realm dispatcher,
  ``healing.js``), shipped as package data;
- ``scripts.py``: the installer of that code and the text of each call (no round trip), the
  answers decoded, :class:`PageScriptError`;
- ``bridge.py``: the calls into a frame, a handle or a locator's elements (through the
  bridge from Playwright's isolated world where it can), ``frame_info``;
- ``healing.py``: the healing API, the same way;
- ``bounded.py``: every call into a page has a deadline (:class:`PageUnresponsive`), and a
  read can be sent ahead and read later;
- ``playwright_private.py``: the only module that touches Playwright's private attributes.

See docs/architecture.md, "The in-page runtime".
"""

from pytest_pacts.runtime.bounded import PageUnresponsive
from pytest_pacts.runtime.bridge import register_bridge
from pytest_pacts.runtime.scripts import PageScriptError, init_script

__all__ = ["PageScriptError", "PageUnresponsive", "init_script", "register_bridge"]
