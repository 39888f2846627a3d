"""Secrets shown by the page are covered before the last pictures of a test.

A secret typed into a field that shows its value (anything but a password input), or a
secret the page itself shows (an API key read by a secret ``extract``), is drawn like any
other text: pytest-playwright's ``--screenshot`` picture at the end of the test, and the
last DOM snapshot of a ``--tracing`` archive, would show it. When the run is over, every
field whose value holds a known secret is given dots instead, and every text that holds one
shows ``***`` (docs/reports.md, "What the secret guarantee covers"). The page is the test's
and the test is over: nothing acts on it any more. Step pictures taken during the run are
withheld on such a page already (``engine/tracing.py``); a trace's screencast frames taken
while the secret was on screen are pictures and cannot be rewritten.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.planner.templating import maskable
from pytest_pacts.runtime import bounded

__all__ = ["cover_secrets"]

_COVER_JS = r"""(secrets) => {
  // any letter case, as every other mask (planner.templating.SecretMask)
  const source = secrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const one = new RegExp(source, 'i');
  const every = new RegExp(source, 'gi');
  let covered = 0;
  for (const el of document.querySelectorAll('input, textarea')) {
    if (el.type !== 'password' && el.value && one.test(el.value)) {
      el.value = '\u2022'.repeat(Math.min(el.value.length, 12));
      covered++;
    }
  }
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeValue && one.test(node.nodeValue)) {
        node.nodeValue = node.nodeValue.replace(every, '***');
        covered++;
      }
    }
  }
  return covered;
}"""


def cover_secrets(page: Page, secrets: Iterable[str]) -> int:
    """Cover every known secret the page shows, in each of its frames (see the module
    docstring); returns how many fields and texts were covered. Never raises: a page that
    is gone or does not answer is left as it is."""
    values = maskable(secrets)
    if not values:
        return 0
    covered = 0
    with contextlib.suppress(PlaywrightError):
        for frame in page.frames:
            with contextlib.suppress(PlaywrightError):
                found = bounded.call(
                    frame,
                    "covering the secrets the page shows",
                    lambda f=frame: f.evaluate(_COVER_JS, values),
                    timeout_ms=2_000,
                )
                covered += int(found or 0)
    return covered
