"""One URL rule for the start page, a later goto, discovery at collection and the run."""

from __future__ import annotations

import pytest

from pytest_pacts.planner.urls import UrlError, resolve_url


@pytest.mark.parametrize(
    ("url", "base", "expected"),
    [
        ("https://shop.example/login", "http://other.example", "https://shop.example/login"),
        ("about:blank", None, "about:blank"),
        ("data:text/html,<p>hi</p>", None, "data:text/html,<p>hi</p>"),
        ("/login", "http://127.0.0.1:8000", "http://127.0.0.1:8000/login"),
        ("cart", "http://shop.example/app", "http://shop.example/app/cart"),  # base is a folder
        ("/cart", "http://shop.example/app/", "http://shop.example/app/cart"),
    ],
)
def test_absolute_urls_stay_and_relative_ones_join_the_base(
    url: str, base: str | None, expected: str
) -> None:
    assert resolve_url(url, base) == expected


def test_a_relative_url_without_a_base_says_what_to_do() -> None:
    with pytest.raises(UrlError) as info:
        resolve_url("/login", None)
    assert str(info.value) == (
        "the URL '/login' is relative and no base URL is set: pass --base-url, set base_url in "
        "the requirement file's Config, or write an absolute URL"
    )
