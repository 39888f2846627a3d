"""Recorded locators that name an element by a key the server reads: a form control's
``name`` and a link's address (docs/healing.md, "Identity by a form name or an address").

HTML's form submission sends each control's value under its ``name`` (the form data set);
a link, followed, requests its ``href`` (HTML, "Following hyperlinks"). Both are the page's
contract with its server, which a redesign of the words a person reads leaves alone:
ArchiveBox 0.7.4's "Pull title" (``name="update_titles"``) renamed "⬇️ Title", pretix
2026.8.0's "E-mail" box (``name="email"``) relabelled "Email", Django admin's and
Flask-Admin's save buttons (``_save``, ``_continue``, ``_continue_editing``); ArchiveBox
0.7.4's "Change password" link (``/admin/password_change/``) renamed "Account", Datasette
1.0's "5 hidden tables" link become "1 hidden table" and Dagster 1.10.21's "View global asset
lineage" become "View lineage", each at its old address. When such a key is unique in its document,
it singles the element out as an id does (HTML makes an id unique), so a recorded locator by
it corroborates the fingerprint's ranking as a recorded id does
(:meth:`~pytest_pacts.models.evidence.EvidenceRule.corroborated`: in for the margin, never
for the threshold). Not for a radio group's or a per-row form's shared name (not unique),
a name that looks generated, two links to one address, or an element of another family
(a link that became a button).
"""

from __future__ import annotations

import re

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery.chain import Call, apply
from pytest_pacts.discovery.render import frame_calls
from pytest_pacts.engine.contracts import HealContext, Resolved
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.runtime.healing import count_matches

_QUOTED = r'"((?:[^"\\]|\\.)*)"'
_BY_NAME = re.compile(rf"(button|input|select|textarea)\[name={_QUOTED}\]")
_BY_HREF = re.compile(rf"(a|area)\[href={_QUOTED}\]")
# A name a framework generated, which the next render renames: runs of digits or of hex,
# React's useId (":r1:"), a UUID.
_GENERATED = re.compile(r"\d{3,}|(?=[0-9a-f]*\d)[0-9a-f]{8,}|^:|[0-9a-f]{8}-[0-9a-f]{4}-", re.I)
_FAMILY = {"a": "link", "area": "link"}


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def key_of(locator: Locator) -> tuple[str, str] | None:
    """``("name", value)`` for a recorded CSS locator that is one form control's ``name``
    (``button[name="update_titles"]``), ``("href", value)`` for one link's address
    (``a[href="/admin/password_change/"]``, recorded only when it was the page's one link
    there and carried no token, ``js/scan.js``, ``address``), else ``None``."""
    if locator.strategy is not Strategy.CSS or locator.css is None or locator.host is not None:
        return None
    css = locator.css.strip()
    if (named := _BY_NAME.fullmatch(css)) is not None:
        value = _unquote(named.group(2))
        return None if not value or _GENERATED.search(value) else ("name", value)
    if (linked := _BY_HREF.fullmatch(css)) is not None:
        return "href", _unquote(linked.group(2))
    return None


def keyed(ctx: HealContext, locator: Locator, found: Resolved) -> str | None:
    """What makes the element a recorded name or address locator finds the recorded one by
    its key, or ``None``: the element has the key the recorded element had, is of its
    family (a control of its tag and role; a link), and no other element of the document
    has the key (one round trip counts them)."""
    key = key_of(locator)
    was, now = ctx.state.fingerprint, found.fingerprint
    if key is None or was is None or now is None or found.count != 1:
        return None
    kind, value = key
    if kind == "name":
        same = was.name == now.name == value and was.tag.lower() == now.tag.lower()
        css = f"[name={_quoted(value)}]"
    else:
        same = was.href == now.href == value and _FAMILY.get(now.tag.lower()) == "link"
        css = f"a[href={_quoted(value)}], area[href={_quoted(value)}]"
    if not same or (was.role or "") != (now.role or ""):
        return None
    calls = (*frame_calls(locator), Call("locator", (css,)))
    try:
        count = count_matches(ctx.page, f"counting the elements {css}", apply(ctx.page, calls))
    except PlaywrightError:
        return None
    if count != 1:
        return None
    return "form name" if kind == "name" else "address"


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
