"""playwright-healer's deterministic stages (heuristic, then fuzzy DOM), in its own venv.

It keeps no fingerprint: what it knows of the element is the selector and a description.
Record: nothing but the old selector; the description is the step's element words (what a
test writes beside the selector, ``hp.click("#login-button", "Login")``). Relocate:
``HealingPipeline.find(selector, description, action)`` (what every ``HealingPage`` call
does) with no AI provider, an in-memory cache and no reports: the old selector (count > 0
within ``quick_timeout_ms``), then the heuristic stage, then the fuzzy-DOM stage; the AI
stages are skipped without a provider, and it raises ``ElementNotFoundError``. A step that
picks one of identical elements by an ordinal (``Delete[2]``) gives it the same words
without the ordinal (its description has none; its selector, the truth's, names the
element): ``bench_peers.py`` says so beside those pairs.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import serve_async
from playwright_healer.config import CacheBackend, CacheConfig, HealerConfig
from playwright_healer.pipeline import HealingPipeline

logging.getLogger("playwright_healer").setLevel(logging.CRITICAL)
FIRST_TRY_MS = 100
ACTIONS = {"click": "click", "fill": "fill", "type": "type", "select": "select",
           "check": "check", "uncheck": "check", "hover": "hover"}  # fmt: skip


def config() -> HealerConfig:
    return HealerConfig(
        providers=[],
        quick_timeout_ms=FIRST_TRY_MS,
        cache=CacheConfig(backend=CacheBackend.MEMORY),
        report_html=False,
        report_json=False,
        console_logging=False,
    )


async def record(page: Any, case: dict[str, Any]) -> str:
    return str(case["truth"])


async def prepare(page: Any, case: dict[str, Any], selector: str) -> tuple[Any, str]:
    return HealingPipeline(page, config(), "bench_peers"), selector


async def relocate(page: Any, case: dict[str, Any], memo: tuple[Any, str]) -> tuple[Any, str]:
    pipeline, selector = memo
    locator = await pipeline.find(selector, case["element"] or "", ACTIONS.get(case["action"], ""))
    event = pipeline.session_report.events[-1]
    return locator, f"{event.stage}: {event.healed_selector} ({event.confidence:.2f})"


if __name__ == "__main__":
    serve_async(record, relocate, prepare)
