"""A requirement's browser context, built in one place for everyone who opens one.

The test at run time (pytest-playwright's ``context``), find-first discovery before the
tests, ``pacts discover``, ``pacts elements`` and ``pacts generate --discover`` all open a
requirement's browser context through :class:`ContextSetup`, so a page that only renders
with the project's context options, session or routes is the same page for each of them.

A context is made of, in this order (a later source wins a key):

1. the base options: pytest-playwright's ``browser_context_args`` fixture (the project's
   conftest: locale, extra HTTP headers, ``base_url``, a device, ...) in a pytest session;
2. the requirement's own ``context`` (its sheet's ``context`` column or key);
3. the session of the requirement's auth profile (``storage_state``), from
   :attr:`ContextSetup.session` when one is given;

then the project's customisation (:attr:`ContextSetup.configure`: in a pytest session the
``pytest_pacts_configure_context`` hook: routes that answer CDN URLs locally, headers set
on the context, init scripts) is applied to the new context before its first page opens.

Nothing here imports pytest: the pytest layer (``pytest_plugin/context_setup.py``) fills a
:class:`ContextSetup` from the fixtures and hooks it has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

    from pytest_pacts.models.requirement import Requirement

__all__ = ["ConfigureContext", "ContextSetup", "SessionFor"]

#: The storage state (a ``storage_state`` value: a path or Playwright's dict) a requirement's
#: context starts from, or ``None`` for none (a requirement without an auth profile). The
#: browser the context opens in is given, to log in with when no saved session is valid
#: (``None`` when the caller has none: the session must then exist already).
SessionFor = Callable[["Requirement", "Browser | None"], object | None]

#: The project's customisation of a new context (routes, headers, init scripts), called
#: before the context's first page opens.
ConfigureContext = Callable[["BrowserContext", "Requirement"], None]


def _empty() -> Mapping[str, object]:
    return MappingProxyType({})


@dataclass(frozen=True)
class ContextSetup:
    """How every browser context of a requirement is made (see the module docstring)."""

    base: Mapping[str, object] = field(default_factory=_empty)
    session: SessionFor | None = None
    configure: Sequence[ConfigureContext] = ()

    def options(
        self, requirement: Requirement, browser: Browser | None = None
    ) -> dict[str, object]:
        """The keyword arguments of ``browser.new_context(...)`` for ``requirement``:
        the base options, then the requirement's ``context``, then its session (made in
        ``browser`` when it has to be)."""
        options: dict[str, object] = dict(self.base)
        options.update(requirement.context)
        if self.session is not None:
            state = self.session(requirement, browser)
            if state is not None:
                options["storage_state"] = state
        return options

    def customise(self, context: BrowserContext, requirement: Requirement) -> None:
        """Apply the project's customisation to a new context of ``requirement``."""
        for configure in self.configure:
            configure(context, requirement)

    def new_context(self, browser: Browser, requirement: Requirement) -> BrowserContext:
        """A new, customised context of ``requirement`` in ``browser``."""
        options: dict[str, Any] = self.options(requirement, browser)
        context = browser.new_context(**options)
        try:
            self.customise(context, requirement)
        except BaseException:
            context.close()
            raise
        return context

    @contextmanager
    def page(self, browser: Browser, requirement: Requirement) -> Iterator[Page]:
        """A page in a new context of ``requirement`` (:meth:`new_context`), closed with it."""
        context = self.new_context(browser, requirement)
        try:
            yield context.new_page()
        finally:
            context.close()
