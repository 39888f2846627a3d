"""The Planner: requirement files in, validated and block-expanded plans out.

Public surface:

- :func:`load_file` reads one ``.xlsx`` / ``.json`` / ``.yaml`` file into plans, or raises
  :class:`RequirementFileError` listing every located problem;
- :class:`Resolver` resolves ``{{env.X}}`` / ``{{vars.x}}`` templates at the moment of use,
  returning :class:`Secret` values that print as ``***``.

Each name loads its module when first used: a collection that reads its plans from the plan
cache (``plan_cache.py``) imports neither the loader nor pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pacts.planner.errors import Problem, RequirementFileError
    from pytest_pacts.planner.loader import LoadedFile, load_file
    from pytest_pacts.planner.options import LoaderOptions
    from pytest_pacts.planner.templating import Resolver, Secret, is_secret_name

_HOMES = {
    "LoadedFile": "loader",
    "LoaderOptions": "options",
    "Problem": "errors",
    "RequirementFileError": "errors",
    "Resolver": "templating",
    "Secret": "templating",
    "is_secret_name": "templating",
    "load_file": "loader",
}

__all__ = [
    "LoadedFile",
    "LoaderOptions",
    "Problem",
    "RequirementFileError",
    "Resolver",
    "Secret",
    "is_secret_name",
    "load_file",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
