"""The regressions box's pictures in the HTML report (reports/regressions.py)."""

from __future__ import annotations

import re

from pytest_pacts.reports.regressions import _css_url


def test_a_picture_link_cannot_end_its_css_url() -> None:
    """The box shows its pictures as ``content: url("...")`` in a style attribute; a link
    (a folder name with quotes or brackets) must not end the string or the ``url()``."""
    link = 'runs/a "b" (c)\\d\nstep1.jpg'
    safe = _css_url(link)
    assert not re.search(r'["()\\\n\r]', safe), safe
    assert safe == "runs/a %22b%22 %28c%29%5Cd%0Astep1.jpg"
    data = "data:image/jpeg;base64,/9j/4AAQSkZJRg+/="
    assert _css_url(data) == data  # a data: URI is kept as it is
