"""pytest-breadcrumb (fingerprint similarity, threshold 0.5), run in its own venv.

Record: ``extract_fingerprint_sync`` of the element the old selector finds, saved with
``Healer.save`` into a fresh SQLite store. Relocate, as ``HealableLocator`` does around an
action: the old selector when it finds one visible element, else ``Healer.heal`` over
``extract_all_candidates_sync(page)`` (every rendered element of the main document) and
the selector ``HealableLocator._build_healed_selector`` makes from the best candidate.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from breadcrumb.core.healer import Healer
from breadcrumb.core.storage import FingerprintStore
from breadcrumb.playwright.extractor import (
    extract_all_candidates_sync,
    extract_fingerprint_sync,
)
from breadcrumb.playwright.page_wrapper import HealableLocator
from common import RecordFailed, serve

TMP = Path(tempfile.mkdtemp(prefix="peer-breadcrumb-"))
THRESHOLD = 0.5  # DEFAULT_CONFIDENCE_THRESHOLD
TEST_ID = "bench_peers"
FIRST_TRY_MS = 100  # the original selector's wait (the action's own timeout in a test)


def record(page: Any, case: dict[str, Any]) -> tuple[Healer, str]:
    store = FingerprintStore(TMP / f"{len(list(TMP.iterdir()))}.db")
    healer = Healer(store=store, threshold=THRESHOLD)
    try:
        fp = extract_fingerprint_sync(page.locator(case["truth"]), case["truth"], TEST_ID)
    except Exception as exc:
        raise RecordFailed(f"cannot fingerprint the truth element: {exc}") from exc
    healer.save(fp)
    return healer, case["truth"]


def relocate(page: Any, case: dict[str, Any], memo: tuple[Healer, str]) -> tuple[Any, str]:
    healer, selector = memo
    original = page.locator(selector)
    try:
        original.wait_for(state="visible", timeout=FIRST_TRY_MS)  # strict: one element
        return original, "the old selector still finds one visible element"
    except Exception:
        pass
    result = healer.heal(TEST_ID, selector, extract_all_candidates_sync(page))
    score = result.score.total if result.score else 0.0
    if not result.healed or result.candidate is None:
        return None, f"no heal: best score {score:.3f} below {THRESHOLD}"
    healed = HealableLocator._build_healed_selector(None, result.candidate)  # type: ignore[arg-type]
    return page.locator(healed), f"healed to {healed} (score {score:.3f})"


if __name__ == "__main__":
    serve(record, relocate)
