"""The roots of what pytest-pacts raises and warns, so a caller can catch all of it at once.

Every exception the package raises on purpose derives from :class:`PactsError`, and every
warning it emits from :class:`PactsWarning`. Each keeps the built-in base it had before
(``ValueError``, ``FileExistsError``, Playwright's ``Error`` …), so an ``except ValueError``
or ``except playwright.sync_api.Error`` written against an older version still catches it.

The tree (see docs/api.md):

- :class:`PactsError`
  - requirement files: ``RequirementFileError`` (every located problem), ``ReadFailure``,
    ``StepSyntaxError``, ``BlockError``, ``TemplateError``, ``UrlError``
  - discovery and the page: ``UnrenderableLocator``, ``PageUnresponsive``,
    ``PageScriptError``, ``NoBrowserError``
  - runs: ``RequirementFailed`` (a requirement item's failure text), ``PactsStepError``
    (a ``pacts.step(...)`` call that is not a valid step)
  - the store: ``StoreError`` and its kinds (``SessionConflict``, ``SchemaTooNewError``,
    ``ImmutableRecordError``, ``InvalidTransition``, ``RecordNotFound``,
    ``StaleParentError``)
  - review and output: ``PatchRejected``, ``ReviewError``, ``GenerationError``,
    ``ScaffoldExists``, ``TemplatesMissing``, ``CommandError``
- :class:`PactsWarning`: :class:`PactsHealWarning`, :class:`PactsStoreWarning`

This module imports nothing, so any layer may use it.
"""

from __future__ import annotations

__all__ = ["PactsError", "PactsHealWarning", "PactsStoreWarning", "PactsWarning"]


class PactsError(Exception):
    """Base class of every exception pytest-pacts raises on purpose."""


class PactsWarning(UserWarning):
    """Base class of every warning pytest-pacts emits."""


class PactsHealWarning(PactsWarning):
    """A requirement passed because a locator was healed: review the heal proposal."""


class PactsStoreWarning(PactsWarning):
    """The test ran, but its run could not be written to the store's run history."""
