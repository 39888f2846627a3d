"""``pacts generate PATHS...``: plain pytest-playwright tests from requirements.

Locators come from the store (the latest recipe version's selectors, then the POM cache),
both only under the requirement's current plan hash; with ``--discover``, requirements
still missing some are walked in a browser against ``--base-url``. Each file is rewritten
only when its requirement's plan hash changed (``--force`` rewrites anyway).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    STORE_ENV,
    CommandError,
    add_store_option,
    opened_store,
)
from pytest_pacts.cli.plan_cmd import load_plans
from pytest_pacts.settings import base_url_of
from pytest_pacts.store import Store, default_store_path

# The browser, the generator (Jinja, Playwright) and the models load in the functions that
# use them, not when the parser is built.
if TYPE_CHECKING:
    from pytest_pacts.browser import StandaloneBrowser
    from pytest_pacts.generator import Locators
    from pytest_pacts.models import Plan


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="write generated_tests/test_<req_id>.py (plain pytest-playwright) per requirement",
        description="Write one plain pytest-playwright test per requirement, using the "
        "verified locators in the store (recipes, POM cache) or, with --discover, found in "
        "a browser. Secrets are read from the environment at run time, never written.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--out", type=Path, default=Path("generated_tests"), metavar="DIR")
    add_store_option(parser, when=" when it exists")
    parser.add_argument(
        "--discover",
        action="store_true",
        help="walk requirements with missing locators in a browser (needs --base-url for "
        "relative URLs)",
    )
    parser.add_argument("--base-url", default=None, metavar="URL")
    parser.add_argument("--force", action="store_true", help="rewrite unchanged files too")
    parser.add_argument("--blocks", action="append", type=Path, default=[], metavar="FILE")
    parser.add_argument("--secret-var", action="append", default=[], metavar="NAME")
    parser.set_defaults(func=run)


def _plans(args: argparse.Namespace) -> tuple[list[Plan], int]:
    return load_plans(args.paths, args.blocks, args.secret_var)


@contextmanager
def _maybe_store(args: argparse.Namespace) -> Iterator[Store | None]:
    implicit = args.store is None and not os.environ.get(STORE_ENV)
    if implicit and not default_store_path(Path.cwd()).is_file():
        yield None
        return
    with opened_store(args) as store:
        yield store


def stored_locators(store: Store, plan: Plan) -> Locators:
    """The latest recipe's selectors, then the POM cache, under the current plan hash."""
    from pytest_pacts.generator import Locators, locators_from_pom, locators_from_recipe, merged

    sources: list[Locators] = []
    recipe = store.recipes.latest(plan.req_id)
    if recipe is not None and recipe.plan_hash == plan.plan_hash:
        found = locators_from_recipe(recipe.body)
        steps = {
            s.index: found.elements[s.target.key]
            for s in plan.steps
            if s.target is not None and s.target.key in found.elements
        }
        sources.append(Locators(steps=steps, elements=found.elements))
    lookup = store.pom_cache.get(plan.req_id, plan.plan_hash)
    if lookup.hit:
        sources.append(locators_from_pom(lookup.payload, plan))
    return merged(*sources)


def _missing(plan: Plan, locators: Locators) -> bool:
    return any(s.target is not None and locators.for_step(s) is None for s in plan.steps)


def run(args: argparse.Namespace) -> int:
    from pytest_pacts.browser import StandaloneBrowser
    from pytest_pacts.generator import GenerationError, Locators, merged, write_test

    plans, failed = _plans(args)
    secret = frozenset(args.secret_var)
    with ExitStack() as stack:
        store = stack.enter_context(_maybe_store(args))
        browser = None
        for plan in plans:
            locators = stored_locators(store, plan) if store is not None else Locators()
            try:
                if _missing(plan, locators) and args.discover:
                    if browser is None:
                        browser = stack.enter_context(StandaloneBrowser())
                    locators = merged(_walk(browser, plan, args.base_url), locators)
                result = write_test(plan, locators, args.out, force=args.force, secret_vars=secret)
            except GenerationError as exc:
                failed += 1
                print(f"{plan.req_id}: not generated: {exc}")
                continue
            state = "wrote" if result.written else "kept"
            print(f"{plan.req_id}: {state} {result.path} ({result.reason})")
    return EXIT_PROBLEMS if failed else EXIT_OK


def _walk(browser: StandaloneBrowser, plan: Plan, base_url: str | None) -> Locators:
    from pytest_pacts.browser import NoBrowserError
    from pytest_pacts.contexts import ContextSetup
    from pytest_pacts.generator import GenerationError
    from pytest_pacts.generator.walk import discover_locators

    base = base_url_of(base_url, plan.requirement.base_url)
    if base is None and "://" not in plan.requirement.url:
        raise GenerationError(f"{plan.requirement.url!r} is relative: give --base-url")
    try:
        with ContextSetup().page(browser.browser, plan.requirement) as page:
            return discover_locators(page, plan, base or "", dict(os.environ))
    except NoBrowserError as exc:
        raise CommandError(str(exc), 3) from None
