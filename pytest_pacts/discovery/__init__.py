"""Discovery (the POMBuilder): find first, verify, then hand a locator to the executor.

See docs/discovery.md. The public surface:

- :func:`discover` / :class:`Discoverer`: resolve all pending steps of a page state in one
  in-page scan per frame, verified through Playwright (``Discoverer.send`` begins one whose
  top-frame scan is already on its way: a :class:`SentDiscovery`);
- :func:`check_actionable` / :func:`check_locator`: the five-point gate (docs/engine.md) in one
  round trip (shared with the executor);
- :func:`to_playwright` / :func:`to_code`: render a structured locator for execution or as
  Python source for generated tests;
- :func:`register_bridge`: register, with a Playwright instance, the selector engine through
  which the in-page calls get a locator's elements from Playwright's isolated world (see
  ``runtime/bridge.py``); without it they use ``Locator.evaluate_all``.

The engine depends on the models and Playwright only, never on pytest (tests/test_layering.py).
"""

from pytest_pacts.discovery.actionability import check_actionable, check_locator
from pytest_pacts.discovery.engine import Discoverer, SentDiscovery, discover
from pytest_pacts.discovery.render import to_code, to_playwright
from pytest_pacts.discovery.strategies import StrategyInfo, UnrenderableLocator
from pytest_pacts.discovery.suggest import suggest_names
from pytest_pacts.runtime.bridge import register_bridge

__all__ = [
    "Discoverer",
    "SentDiscovery",
    "StrategyInfo",
    "UnrenderableLocator",
    "check_actionable",
    "check_locator",
    "discover",
    "register_bridge",
    "suggest_names",
    "to_code",
    "to_playwright",
]
