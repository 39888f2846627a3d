"""The projection layer: store rows in, web DTOs out, and the dashboard's decisions.

The only package of :mod:`pytest_pacts.web` that reads the store, the governance code and
their types. Everything it returns is a :mod:`pytest_pacts.web.dto` object of plain values
with display labels and tones already chosen, so the routes, pages and scripts never see a
core type or compare a core value; renaming a verdict or a step status changes this package
and nothing else (``tests/test_layering.py`` holds the web layer to that).

Every DTO passes through :meth:`~.base.ProjectionBase._masked` on its way out: the values of secret
environment variables (names that look secret, or listed with ``--secret-var``), the
write token and the store's password are replaced with ``***`` wherever they appear, also
inside JSON escapes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pytest_pacts.store import StoreError, open_store
from pytest_pacts.web.errors import Unavailable
from pytest_pacts.web.projection.labels import _first_line, environment_secrets, store_secrets
from pytest_pacts.web.projection.proposals import ProposalViews
from pytest_pacts.web.projection.runs import RunViews


class Projection(RunViews, ProposalViews):
    """Read models and decisions over one open store (runs in :mod:`.runs`, proposals and
    review in :mod:`.proposals`, labels in :mod:`.labels`)."""


def open_projection(
    target: str, *, root: Path, reports: Path | None = None, secrets: Iterable[str] = ()
) -> Projection:
    """A projection over the store at ``target`` (file path or DSN), which it owns; the
    store's password is masked too. Raises :class:`Unavailable` when it cannot be opened."""
    try:
        store = open_store(target)
    except (StoreError, OSError, ValueError) as exc:
        raise Unavailable(f"cannot open the store: {_first_line(str(exc))}") from None
    return Projection(
        store, root=root, reports=reports, secrets=[*secrets, *store_secrets(target)], owns=True
    )


__all__ = ["Projection", "environment_secrets", "open_projection", "store_secrets"]
