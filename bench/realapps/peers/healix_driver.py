"""healix (weighted fingerprint, threshold 0.5, margin 0.05, same tag), in its own venv.

Record: the element the old selector finds, read through ``PlaywrightDriverAdapter.locate``
(healix's own element description), stored as ``Fingerprint.from_element`` in a fresh
``SQLiteFingerprintStore``. Relocate: ``Resolver.resolve`` (its primary locators in priority
order, each verified unless trusted, then every same-tag element scored; the best must
reach the threshold and beat a runner-up above it by the margin, else it raises), and the
answer is the locator healix would act on (``_locator_for`` the resolved element).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import RecordFailed, serve
from healix.driver.playwright_adapter import PlaywrightDriverAdapter
from healix.healing.fingerprint import Fingerprint, LocatorSpec
from healix.healing.resolver import Resolver
from healix.healing.store import SQLiteFingerprintStore

TMP = Path(tempfile.mkdtemp(prefix="peer-healix-"))
PAGE, ROLE = "bench://case", "target"
ENTER_FRAME = ">> internal:control=enter-frame >>"


def record(page: Any, case: dict[str, Any]) -> SQLiteFingerprintStore:
    driver = PlaywrightDriverAdapter(page, settle_timeout_ms=0)
    # a selector into an iframe: healix searches every same-origin frame itself
    selector = case["truth"].split(ENTER_FRAME)[-1].strip()
    probe = Fingerprint(page_url=PAGE, element_role="probe")
    element = driver.locate(LocatorSpec("truth", "css", selector), probe)
    if element is None:
        raise RecordFailed("healix's driver finds no unique element for the truth selector")
    store = SQLiteFingerprintStore(TMP / f"{len(list(TMP.iterdir()))}.db")
    store.put(Fingerprint.from_element(element, PAGE, ROLE))
    return store


def prepare(page: Any, case: dict[str, Any], store: Any) -> tuple[Any, Resolver]:
    return PlaywrightDriverAdapter(page, settle_timeout_ms=0), Resolver(store)


def relocate(page: Any, case: dict[str, Any], memo: tuple[Any, Resolver]) -> tuple[Any, str]:
    driver, resolver = memo
    result = resolver.resolve(driver, PAGE, ROLE)
    conf = "trusted" if result.confidence is None else f"{result.confidence:.3f}"
    locator = driver._locator_for(result.element)
    return (
        locator,
        f"{result.outcome} via {result.strategy} ({conf}): {result.element.css_selector}",
    )


if __name__ == "__main__":
    serve(record, relocate, prepare)
