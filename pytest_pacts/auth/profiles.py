"""Auth profiles: which login flow makes a session, for which accounts, how long it lives.

Profiles are declared once per project in ``pacts-auth.yaml`` (ini ``pacts_auth_file``)::

    profiles:
      shopper:
        url: /                          # where the login flow starts
        steps:                          # the login flow, rows as in a sheet (blocks work)
          - "use | SignIn | user={{vars.user}}; password={{vars.password}}"
        vars: {password: "{{env.SHOP_PASSWORD}}"}
        accounts:                       # optional: one session per account, handed out
          - {user: standard_user}       #   to parallel workers in turn (rotation)
          - {user: problem_user}
        verify: {url: /inventory.html, expect: "text_visible:Products"}
        max_age: 30m                    # a saved session older than this logs in again
      admin:
        login: requirements/login.xlsx::REQ-LOGIN-001   # or: a requirement of the sheets

A requirement opts in with ``auth: shopper`` (an ``Auth`` column in Excel). The login flow
becomes a plan like any requirement's (``AUTH-<profile>``): its values stay templates until
typed, so secrets from the environment never reach a plan, the store or a report.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pytest_pacts.errors import PactsError
from pytest_pacts.models import Plan, SourceRef
from pytest_pacts.planner.loader import LoaderOptions, load_document, load_file, read_document
from pytest_pacts.planner.planhash import plan_hash
from pytest_pacts.planner.readers import Document
from pytest_pacts.planner.readers.base import JsonLike, PathKey
from pytest_pacts.planner.templating import is_secret_name

__all__ = [
    "DEFAULT_AUTH_FILE",
    "Account",
    "AuthConfig",
    "AuthConfigError",
    "Profile",
    "Verify",
    "load_profiles",
    "parse_age",
]

DEFAULT_AUTH_FILE = "pacts-auth.yaml"
_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
_AGE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_KEYS = ("url", "steps", "login", "vars", "accounts", "verify", "max_age", "base_url")


class AuthConfigError(ValueError, PactsError):
    """The auth file is wrong; the message names the file, the line and what to write."""


def parse_age(value: JsonLike) -> float | None:
    """``90`` or ``"90s"``, ``"30m"``, ``"12h"``, ``"1d"`` as seconds; ``None`` when unset."""
    if value is None:
        return None
    found = _AGE_RE.match(str(value))
    if found is None:
        raise ValueError(f"{value!r} is not an age")
    return float(found.group(1)) * _UNITS[found.group(2)]


@dataclass(frozen=True)
class Verify:
    """The cheap check that a saved session still works: open ``url`` and expect
    ``expect`` (an expected outcome; default: the page is ``url`` itself, not a redirect)."""

    url: str
    expect: str | None = None


@dataclass(frozen=True)
class Account:
    """One account of a profile: its number (from 1) and its vars (templates kept)."""

    number: int
    values: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Profile:
    name: str
    source: SourceRef
    url: str | None = None
    steps: tuple[JsonLike, ...] = ()
    login: str | None = None  # "file::REQ-ID" of a requirement that logs in
    vars: Mapping[str, str] = field(default_factory=dict)
    accounts: tuple[Account, ...] = (Account(1),)
    verify: Verify | None = None
    max_age: float | None = None
    base_url: str | None = None

    @property
    def req_id(self) -> str:
        return f"AUTH-{self.name}"

    def account(self, slot: int) -> Account:
        """The account of worker ``slot`` (0, 1, ...): each in turn, round the list."""
        return self.accounts[slot % len(self.accounts)]


@dataclass(frozen=True)
class AuthConfig:
    """The profiles of a project, and where they were read from."""

    path: Path | None = None
    profiles: Mapping[str, Profile] = field(default_factory=dict)

    def profile(self, name: str) -> Profile:
        found = self.profiles.get(name)
        if found is not None:
            return found
        where = f"{self.path}" if self.path is not None else f"no {DEFAULT_AUTH_FILE} was found"
        close = difflib.get_close_matches(name, list(self.profiles), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        known = ", ".join(sorted(self.profiles)) or "none"
        raise AuthConfigError(
            f"auth profile {name!r} is not declared{hint}; profiles in {where}: {known}"
        )

    def login_plan(self, profile: Profile, account: Account, options: LoaderOptions) -> Plan:
        """The plan of ``profile``'s login flow for ``account`` (its vars over the profile's)."""
        values = {**profile.vars, **account.values}
        if profile.login is not None:
            return self._referenced(profile, values, options)
        item: dict[str, JsonLike] = {
            "req_id": profile.req_id,
            "url": profile.url or "/",
            "vars": dict(values),
            "steps": list(profile.steps),
        }
        doc = Document(
            path=str(self.path or DEFAULT_AUTH_FILE),
            data={"requirements": [item]},
            positions={(): profile.source, ("requirements", 0): profile.source},
        )
        folder = self.path.parent if self.path is not None else None
        (plan,) = load_document(doc, options, folder).plans
        return plan

    def _referenced(
        self, profile: Profile, values: Mapping[str, str], options: LoaderOptions
    ) -> Plan:
        assert profile.login is not None
        file, _, req_id = profile.login.partition("::")
        base = self.path.parent if self.path is not None else Path.cwd()
        path = (base / file).resolve()
        try:
            plans = load_file(path, options, display=file).plans
        except OSError as exc:
            raise AuthConfigError(
                f"{profile.source.render()}: the login {profile.login!r} of profile "
                f"{profile.name!r} cannot be read ({exc.strerror or exc})"
            ) from None
        found = next((p for p in plans if p.req_id == req_id), None)
        if found is None:
            ids = ", ".join(p.req_id for p in plans)
            raise AuthConfigError(
                f"{profile.source.render()}: {file} has no requirement {req_id!r} "
                f"(it has: {ids}); expected login: FILE::REQ-ID"
            )
        if not values:
            return found
        requirement = found.requirement.model_copy(
            update={"vars": {**found.requirement.vars, **values}}
        )
        secret = found.secret_vars | frozenset(
            k for k in values if is_secret_name(k, options.secret_vars)
        )
        return found.model_copy(
            update={
                "requirement": requirement,
                "secret_vars": secret,
                "plan_hash": plan_hash(requirement, found.steps, secret),
            }
        )


def _problem(doc: Document, path: PathKey, message: str, expected: str) -> AuthConfigError:
    return AuthConfigError(f"{doc.locate(path).render()}: {message}; expected {expected}")


def _text(value: JsonLike) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def _strings(doc: Document, path: PathKey, value: JsonLike, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _problem(doc, path, f"{what} is not a mapping", "name: value pairs")
    return {str(k): _text(v) for k, v in value.items()}


# long because: one profile's fields checked in file order, each with its located message
def _profile(doc: Document, name: str, raw: JsonLike) -> Profile:
    at: PathKey = ("profiles", name)
    if not _NAME_RE.match(name):
        raise _problem(doc, at, f"profile name {name!r} is not a name", "letters, digits, _ . -")
    if not isinstance(raw, dict):
        raise _problem(doc, at, f"profile {name!r} is not a mapping", "url and steps, or login")
    unknown = [k for k in raw if k not in _KEYS]
    if unknown:
        close = difflib.get_close_matches(unknown[0], _KEYS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise _problem(
            doc, (*at, unknown[0]), f"unknown key {unknown[0]!r}{hint}", ", ".join(_KEYS)
        )
    login = _text(raw.get("login")) or None
    steps = raw.get("steps")
    if login is not None:
        if steps is not None:
            raise _problem(doc, (*at, "steps"), "both login and steps", "one of them")
        if "::" not in login:
            raise _problem(doc, (*at, "login"), f"login {login!r}", "FILE::REQ-ID")
    elif not isinstance(steps, list) or not steps:
        raise _problem(
            doc, at, f"profile {name!r} has no login flow", "steps (a list) or login: FILE::REQ-ID"
        )
    accounts: list[Account] = []
    raw_accounts = raw.get("accounts")
    if raw_accounts is not None:
        if not isinstance(raw_accounts, list) or not raw_accounts:
            raise _problem(doc, (*at, "accounts"), "accounts is not a list", "a list of vars")
        for n, item in enumerate(raw_accounts):
            values = _strings(doc, (*at, "accounts", n), item, "an account")
            accounts.append(Account(n + 1, values))
    verify = None
    raw_verify = raw.get("verify")
    if raw_verify is not None:
        if isinstance(raw_verify, str):
            verify = Verify(raw_verify)
        elif isinstance(raw_verify, dict) and raw_verify.get("url"):
            expect = _text(raw_verify.get("expect")) or None
            verify = Verify(_text(raw_verify["url"]), expect)
        else:
            raise _problem(doc, (*at, "verify"), "verify has no url", "{url: /page, expect: ...}")
    try:
        max_age = parse_age(raw.get("max_age"))
    except ValueError:
        raise _problem(
            doc, (*at, "max_age"), f"max_age {raw.get('max_age')!r}", "seconds, or 30m, 12h, 1d"
        ) from None
    return Profile(
        name=name,
        source=doc.locate(at),
        url=_text(raw.get("url")) or None,
        steps=tuple(steps) if isinstance(steps, list) else (),
        login=login,
        vars=_strings(doc, (*at, "vars"), raw.get("vars"), "vars"),
        accounts=tuple(accounts) or (Account(1),),
        verify=verify,
        max_age=max_age,
        base_url=_text(raw.get("base_url")) or None,
    )


def load_profiles(path: Path, display: str | None = None) -> AuthConfig:
    """The profiles of the auth file at ``path``; :class:`AuthConfigError` names the line of
    anything wrong. A missing file holds no profiles."""
    if not path.is_file():
        return AuthConfig(None, {})
    from pytest_pacts.planner.errors import RequirementFileError

    try:
        doc = read_document(path, display or str(path), LoaderOptions())
    except RequirementFileError as exc:
        raise AuthConfigError(str(exc)) from None
    data = doc.data
    profiles = data.get("profiles") if isinstance(data, dict) else None
    if not isinstance(profiles, dict) or not profiles:
        raise _problem(doc, (), "the file declares no profiles", "profiles: {name: {...}}")
    return AuthConfig(path, {str(n): _profile(doc, str(n), raw) for n, raw in profiles.items()})
