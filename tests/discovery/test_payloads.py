"""The in-page answers are checked where they enter Python (``discovery/payloads.py``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.discovery.payloads import (
    PayloadError,
    RankResult,
    ScanResult,
    VerifyResult,
    checked,
)
from pytest_pacts.runtime.bridge import call_on_elements

from .helpers import find


def test_a_wrong_answer_is_refused_naming_the_call_and_the_field() -> None:
    with pytest.raises(PayloadError) as err:
        checked({"count": 1, "same": "yes", "found": []}, VerifyResult, "the in-page 'verify' call")
    text = str(err.value)
    assert "the in-page 'verify' call" in text and "same" in text, text
    with pytest.raises(PayloadError, match="status"):
        checked([{"key": "k", "status": "maybe", "rank": None}], list[ScanResult], "the scan")
    with pytest.raises(PayloadError, match="candidates"):
        checked({"considered": 3}, RankResult, "rank")


def test_unknown_keys_are_kept_and_optional_ones_may_be_missing() -> None:
    raw = {"key": "k", "status": "none", "rank": None, "message": "m", "later": 1}
    (result,) = checked([raw], list[ScanResult], "the scan")
    assert result == raw


def test_real_answers_of_the_page_pass_the_check(tab: Page) -> None:
    tab.set_content("<form id='f'><button id='go'>Go</button></form>")
    found = find(tab, "Go")
    assert found.locator is not None and found.fingerprint is not None
    answer = call_on_elements(
        to_playwright(tab, found.locator), "verify", {"scan_id": "gone", "index": 0}
    )
    verified = checked(answer, VerifyResult, "the in-page 'verify' call")
    assert verified["count"] == 1 and verified["same"] is False  # that scan is not registered
