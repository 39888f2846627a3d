"""The in-page half of discovery: JavaScript shipped as package data and installed once.

The files in ``js/`` are concatenated into one installer that defines the API object on
``globalThis`` under a key that includes a hash of the source, so a page keeps one copy per
plugin version and a new version never talks to an old copy. Every call carries the
installer guarded by ``if (!globalThis[key])``: installing costs nothing after the first call
and no extra round trip is ever needed (SPEC.md §4 "One pass per page state").
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

from playwright.sync_api import Locator as PWLocator

_FILES = ("dom.js", "actionability.js", "scan.js", "resolve.js", "api.js")


@cache
def _installer() -> tuple[str, str]:
    folder = resources.files("pytest_pacts.discovery").joinpath("js")
    source = "\n".join(folder.joinpath(name).read_text(encoding="utf-8") for name in _FILES)
    key = "__pacts_discovery_" + hashlib.sha256(source.encode()).hexdigest()[:12]
    install = f"(globalThis[{key!r}] || (globalThis[{key!r}] = (() => {{\n{source}\n}})()))"
    return key, install


def page_function(name: str) -> str:
    """``async (arg) => api.name(arg)``, for ``Page.evaluate`` / ``Frame.evaluate``."""
    _, install = _installer()
    return f"async (arg) => {{ const api = {install}; return await api.{name}(arg); }}"


def elements_function(name: str) -> str:
    """``async (elements, arg) => api.name(elements, arg)``, for ``Locator.evaluate_all``."""
    _, install = _installer()
    return f"async (els, arg) => {{ const api = {install}; return await api.{name}(els, arg); }}"


NOT_INSTALLED = "__pacts_not_installed__"


def installed_elements_function(name: str) -> str:
    """Like :func:`elements_function` but without the installer: a short function for hot
    paths (verification, the executor's gate). Returns ``NOT_INSTALLED`` when the page has no
    copy yet (a fresh navigation); callers then retry with :func:`elements_function`."""
    key, _ = _installer()
    return (
        f"async (els, arg) => {{ const api = globalThis[{key!r}]; "
        f"return api ? await api.{name}(els, arg) : {NOT_INSTALLED!r}; }}"
    )


def installed_page_function(name: str) -> str:
    """Like :func:`page_function` without the installer (``NOT_INSTALLED`` when absent)."""
    key, _ = _installer()
    return (
        f"async (arg) => {{ const api = globalThis[{key!r}]; "
        f"return api ? await api.{name}(arg) : {NOT_INSTALLED!r}; }}"
    )


def call_on_elements(target: PWLocator, name: str, arg: object) -> object:
    """``target.evaluate_all`` of API function ``name``, sending the installer only if needed."""
    result = target.evaluate_all(installed_elements_function(name), arg)
    if result == NOT_INSTALLED:
        result = target.evaluate_all(elements_function(name), arg)
    return result


def element_function(name: str) -> str:
    """``(element, arg) => api.name(element, arg)``, for ``ElementHandle.evaluate``."""
    _, install = _installer()
    return f"(el, arg) => {{ const api = {install}; return api.{name}(el, arg); }}"
