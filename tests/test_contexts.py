"""A requirement's context options come from one place (``pytest_pacts/contexts.py``):
the base options, then the requirement's ``context``, then its session."""

from __future__ import annotations

from pathlib import Path

from pytest_pacts.contexts import ContextSetup
from pytest_pacts.models.requirement import Requirement
from pytest_pacts.planner import load_file


def _requirements(tmp_path: Path) -> list[Requirement]:
    path = tmp_path / "r.req.yaml"
    path.write_text(
        "requirements:\n"
        "  - {req_id: PLAIN, url: /, steps: ['Go | click']}\n"
        "  - req_id: OWN\n"
        "    url: /\n"
        "    context: {locale: fr-FR, viewport: {width: 800, height: 600}}\n"
        "    steps: ['Go | click']\n"
    )
    return [plan.requirement for plan in load_file(path).plans]


def test_later_sources_win_a_key(tmp_path: Path) -> None:
    plain, own = _requirements(tmp_path)
    base = {"locale": "de-DE", "extra_http_headers": {"X-Team": "qa"}}
    setup = ContextSetup(base=base)
    assert setup.options(plain) == base
    assert setup.options(own) == {
        "locale": "fr-FR",
        "extra_http_headers": {"X-Team": "qa"},
        "viewport": {"width": 800, "height": 600},
    }
    sessions = ContextSetup(
        base={**base, "storage_state": "global.json"},
        session=lambda r, _browser: "own.json" if r.req_id == "OWN" else None,
    )
    assert sessions.options(plain)["storage_state"] == "global.json"
    assert sessions.options(own)["storage_state"] == "own.json"
    assert base == {"locale": "de-DE", "extra_http_headers": {"X-Team": "qa"}}  # not changed
