"""mendwright's fingerprint tier (no model provider), in its own venv.

Record: ``mendwright.open(page, store_path=...)`` and ``heal.locator(KEY, old_selector)``;
the match records the element's fingerprint in the JSON store. Relocate, in a new Healer
over the same store (a new run): ``heal.locator(KEY, old_selector)``. The selector is tried
first; when it matches nothing the fingerprint tier looks for the element (score at least
THRESHOLD, a strong identity signal, no rival within MARGIN, inside the recorded ancestors
that still exist), and its XPath goes through mendwright's own validation and live check;
anything else raises ``AttentionRequired``. The answer is ``proxy.native``.

No provider is configured (the environment has no model keys), so no model is ever asked;
``heal_across_pages=True`` because every snapshot has its own file URL while in a real
upgrade the page keeps its address. No key is marked destructive (the never-heal list is
the user's).
"""

from __future__ import annotations

import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mendwright
from common import RecordFailed, serve

TMP = Path(tempfile.mkdtemp(prefix="peer-mendwright-"))
KEY = "target"
FIRST_TRY_MS = 100  # how long locator() polls the selector before it is broken
logging.getLogger("mendwright").setLevel(logging.CRITICAL)


def _open(page: Any, store: Path) -> Any:
    return mendwright.open(page, store_path=store, timeout_ms=FIRST_TRY_MS,
                           heal_across_pages=True, fingerprint=True)  # fmt: skip


def record(page: Any, case: dict[str, Any]) -> tuple[Path, str]:
    store = TMP / str(len(list(TMP.iterdir()))) / "overrides.json"
    store.parent.mkdir(parents=True)
    try:
        _open(page, store).locator(KEY, case["truth"], timeout_ms=2_000)
    except Exception as exc:
        raise RecordFailed(f"mendwright could not resolve the truth selector: {exc}") from exc
    return store, case["truth"]


def prepare(page: Any, case: dict[str, Any], memo: tuple[Path, str]) -> tuple[Any, str]:
    store, selector = memo
    return _open(page, store), selector


def relocate(page: Any, case: dict[str, Any], memo: tuple[Any, str]) -> tuple[Any, str]:
    heal, selector = memo
    proxy = heal.locator(KEY, selector)
    healed = getattr(proxy, "_healed", None)
    return proxy.native, ("healed: " + str(healed)) if healed else "the old selector"


if __name__ == "__main__":
    serve(record, relocate, prepare)
