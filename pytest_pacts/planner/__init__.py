"""The Planner: requirement files in, validated and block-expanded plans out.

Public surface:

- :func:`load_file` reads one ``.xlsx`` / ``.json`` / ``.yaml`` file into plans, or raises
  :class:`RequirementFileError` listing every located problem;
- :class:`Resolver` resolves ``{{env.X}}`` / ``{{vars.x}}`` templates at the moment of use,
  returning :class:`Secret` values that print as ``***``.
"""

from pytest_pacts.planner.errors import Problem, RequirementFileError
from pytest_pacts.planner.loader import LoadedFile, LoaderOptions, load_file
from pytest_pacts.planner.templating import Resolver, Secret, is_secret_name

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
