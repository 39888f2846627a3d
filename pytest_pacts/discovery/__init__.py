"""Discovery (the POMBuilder): find first, verify, then hand a locator to the executor.

See docs/discovery.md. The public surface:

- :func:`discover` / :class:`Discoverer`: resolve all pending steps of a page state in one
  in-page scan per frame, verified through Playwright;
- :func:`check_actionable` / :func:`check_locator`: the five-point gate (docs/engine.md) in one
  round trip (shared with the executor);
- :func:`to_playwright` / :func:`to_code`: render a structured locator for execution or as
  Python source for generated tests.

The engine depends on the models and Playwright only, never on pytest (tests/test_layering.py).
"""

from pytest_pacts.discovery.actionability import check_actionable, check_locator
from pytest_pacts.discovery.engine import Discoverer, discover
from pytest_pacts.discovery.render import to_code, to_playwright
from pytest_pacts.discovery.strategies import StrategyInfo, UnrenderableLocator
from pytest_pacts.discovery.suggest import suggest_names

__all__ = [
    "Discoverer",
    "StrategyInfo",
    "UnrenderableLocator",
    "check_actionable",
    "check_locator",
    "discover",
    "suggest_names",
    "to_code",
    "to_playwright",
]
