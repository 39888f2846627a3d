"""The one rule for turning a requirement's URL into the URL a browser opens.

An absolute URL (``https://…``, ``about:``, ``data:``, ``chrome:``) is used as it is; a
relative one is joined to the base URL (``--base-url``, else the requirement file's
``base_url``), which is always read as a folder: ``/shop`` + ``cart`` is ``/shop/cart``.
The start page, a later ``goto`` step, discovery at collection and the run all use it.
"""

from __future__ import annotations

from urllib.parse import urljoin

from pytest_pacts.errors import PactsError


class UrlError(ValueError, PactsError):
    """A relative URL with no base URL to join it to."""


def resolve_url(url: str, base_url: str | None) -> str:
    """Absolute URLs as they are; relative ones joined with ``base_url``.

    Raises :class:`UrlError` (saying what to do) when ``url`` is relative and there is no
    base URL.
    """
    if "://" in url or url.startswith(("about:", "data:", "chrome:")):
        return url
    if not base_url:
        raise UrlError(
            f"the URL {url!r} is relative and no base URL is set: pass --base-url, set "
            "base_url in the requirement file's Config, or write an absolute URL"
        )
    return urljoin(base_url if base_url.endswith("/") else base_url + "/", url.lstrip("/"))
