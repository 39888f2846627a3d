"""Sessions of auth profiles: log in once, save, verify before reuse, refresh, rotate.

:meth:`Sessions.storage_state` is what a requirement's browser context starts from
(``contexts.ContextSetup.session``): the saved storage state of the requirement's profile,
for the account this process is handed (rotation) on this deployment. Under the session's
lock (one per profile, account and base URL, shared by every process of a run):

1. a login that already failed in this run is not tried again: the failure is raised, short,
   naming the first report of it (a failed login is reported once, fully);
2. a saved session younger than the profile's ``max_age`` is reused, after the profile's
   ``verify`` check passed (done once per process and session: a page load);
3. otherwise (none saved, too old, or the check failed) the login flow runs once, through
   the engine like any requirement (gated, healed), in a context of its own, and its
   storage state is saved (``vault.py``); a failing login raises :class:`AuthFailed`.

Nothing here imports pytest; the engine is reached through the ``run`` callable the
application layer composes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

from pytest_pacts.auth.profiles import Account, AuthConfig, AuthConfigError, Profile
from pytest_pacts.auth.vault import LockTimeout, SessionMeta, Vault, session_key
from pytest_pacts.errors import PactsError
from pytest_pacts.models import Plan, SourceRef
from pytest_pacts.models.outcome import RcaClass, RunRecord
from pytest_pacts.models.requirement import Requirement
from pytest_pacts.planner.loader import LoaderOptions

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["AuthFailed", "RunOnPage", "Sessions"]

#: Runs a plan on a page through the engine and returns its record (``verify`` is True for
#: the check of a saved session: no healing, a short timeout).
RunOnPage = Callable[[Plan, "Page", bool], RunRecord]

# What a failed login means for the requirements waiting for its session: the page answered
# and refused (credentials, a locked account: data), or the login could not be done at all.
_DATA_CLASSES = frozenset({RcaClass.DATA_ISSUE, RcaClass.ASSERTION_MISMATCH})


class AuthFailed(PactsError):
    """No session for a profile: its login failed (or its profile is wrong). ``text`` is
    written for a person; ``rca`` is the root cause of the requirements that needed it."""

    def __init__(
        self, profile: str, text: str, rca: RcaClass, *, short: str = "", key: str = ""
    ) -> None:
        super().__init__(text)
        self.profile = profile
        self.text = text  # the full report (the login's failure text, masked)
        self.short = short or text  # one line pointing at the full report
        self.rca = rca
        self.key = key


@dataclass
class Sessions:
    """The auth sessions of one process (see the module docstring)."""

    config: AuthConfig
    vault: Vault
    run: RunOnPage
    loader: LoaderOptions = field(default_factory=LoaderOptions)
    base_url: str | None = None
    run_id: str = ""
    slot: int = 0  # which account this process takes: its xdist worker number
    context_options: Mapping[str, object] = field(default_factory=dict)
    lock_timeout_s: float = 600.0
    say: Callable[[str], None] = lambda _text: None
    logins: int = 0  # logins this process ran
    _ready: dict[str, tuple[str, float]] = field(default_factory=dict)
    _failed: dict[str, AuthFailed] = field(default_factory=dict)

    def storage_state(self, requirement: Requirement, browser: Browser | None) -> str | None:
        """The storage state ``requirement``'s context starts from: ``None`` without an
        auth profile, else the path of its profile's saved session (logging in first when
        needed, in ``browser``). Raises :class:`AuthFailed`."""
        if not requirement.auth:
            return None
        try:
            profile = self.config.profile(requirement.auth)
        except AuthConfigError as exc:
            raise AuthFailed(
                requirement.auth,
                f"{requirement.source.render()}: {exc}",
                RcaClass.DATA_ISSUE,
            ) from None
        return self.session(profile, browser)

    def report(self, failure: AuthFailed) -> str:
        """What a requirement that needed ``failure``'s session says: the full report for
        the first requirement of the run to say it (across processes), one line after."""
        if not failure.key or self.vault.claim_report(failure.key, self.run_id):
            return failure.text
        return failure.short

    def expired(self, requirement: Requirement, page: Page) -> str | None:
        """Why the session ``requirement``'s context started from no longer holds, or
        ``None`` when it still does (or cannot be told). Asked after a requirement failed: its
        failure may be the login page (or a 401) the app shows once the session it was given
        expired mid-run. The profile's ``verify`` check runs in a new page of that context,
        with the cookies it has now; without a ``verify``, the page showing the profile's
        login URL says so."""
        if not requirement.auth:
            return None
        try:
            profile = self.config.profile(requirement.auth)
        except AuthConfigError:
            return None
        if profile.verify is None:
            login = urlsplit(profile.url or "").path
            try:
                now = urlsplit(page.url).path
            except Exception:  # the page is gone: nothing to tell
                return None
            return f"the page is the login page ({now})" if login and now == login else None
        from pytest_pacts.planner.inline import inline_plan, inline_step

        expect = profile.verify.expect or "url_contains:" + (
            urlsplit(profile.verify.url).path or "/"
        )
        source = SourceRef(path=str(self.config.path or "pacts-auth.yaml"))
        step = inline_step(0, None, "wait", None, expect, "abort", source, env={})
        plan = inline_plan(f"{profile.req_id}-verify", profile.verify.url, (step,), source)
        try:
            check = page.context.new_page()
        except Exception:  # the context is gone (a crash): not a session problem
            return None
        try:
            record = self.run(plan, check, True)
        finally:
            with contextlib.suppress(Exception):
                check.close()
        if record.verdict == "pass":
            return None
        return record.rca.message.splitlines()[0] if record.rca.message else "verify failed"

    def renew(self, requirement: Requirement, browser: Browser | None, why: str) -> str:
        """Log ``requirement``'s profile in again because its session expired (``why``),
        unless another process of the run already did since this one took it; returns the
        new storage state's path. Raises :class:`AuthFailed`."""
        assert requirement.auth
        profile = self.config.profile(requirement.auth)
        key, account, base = self.key(profile)
        used = self._ready.pop(key, None)
        try:
            with self.vault.lock(key, self.lock_timeout_s):
                meta = self.vault.meta(key)
                if (
                    used is not None
                    and meta is not None
                    and not meta.failed
                    and meta.created > used[1]
                    and self.vault.has_state(key)
                ):
                    return self._keep(key, meta)  # renewed by another process meanwhile
                reason = f"the session expired during {requirement.req_id}: {why}"
                return self._login(profile, account, key, base, browser, reason)
        except LockTimeout as exc:
            raise AuthFailed(
                profile.name, f"auth profile {profile.name!r}: {exc}", RcaClass.ENV_FAULT
            ) from None

    def key(self, profile: Profile) -> tuple[str, Account, str]:
        account = profile.account(self.slot)
        base = profile.base_url or self.base_url or ""
        return session_key(profile.name, account.number, base), account, base

    def session(self, profile: Profile, browser: Browser | None) -> str:
        key, account, base = self.key(profile)
        failed = self._failed.get(key)
        if failed is not None:
            raise failed
        ready = self._ready.get(key)
        if ready is not None and not _too_old(profile, ready[1]):
            return ready[0]
        try:
            with self.vault.lock(key, self.lock_timeout_s):
                return self._under_lock(profile, account, key, base, browser)
        except LockTimeout as exc:
            raise AuthFailed(
                profile.name,
                f"auth profile {profile.name!r}: {exc}; expected the other process's login "
                "to end (a login that hangs: check the login page)",
                RcaClass.ENV_FAULT,
            ) from None

    def _under_lock(
        self, profile: Profile, account: Account, key: str, base: str, browser: Browser | None
    ) -> str:
        meta = self.vault.meta(key)
        who = _who(profile, account)
        if meta is not None and meta.failed and meta.run_id == self.run_id:
            failure = AuthFailed(
                profile.name,
                meta.report or f"{who}: the login failed ({meta.failed})",
                RcaClass(meta.rca or RcaClass.ENV_FAULT.value),
                short=_short(who, meta.failed),
                key=key,
            )
            self._failed[key] = failure
            raise failure
        reason = "no saved session"
        if meta is not None and not meta.failed and self.vault.has_state(key):
            if _too_old(profile, meta.created):
                reason = f"the saved session is {meta.age():.0f} s old, over max_age"
            elif meta.run_id == self.run_id or profile.verify is None:
                return self._keep(key, meta)
            else:
                problem = self._verify(profile, key, base, browser)
                if problem is None:
                    return self._keep(key, meta)
                reason = f"the saved session did not pass verify ({problem})"
        return self._login(profile, account, key, base, browser, reason)

    def _keep(self, key: str, meta: SessionMeta) -> str:
        path = str(self.vault.state_path(key))
        self._ready[key] = (path, meta.created)
        return path

    def _need(self, browser: Browser | None, profile: Profile) -> Browser:
        if browser is None:
            raise AuthFailed(
                profile.name,
                f"auth profile {profile.name!r}: no browser to log in with",
                RcaClass.ENV_FAULT,
            )
        return browser

    def _verify(self, profile: Profile, key: str, base: str, browser: Browser | None) -> str | None:
        """Why the saved session fails the profile's check, or ``None`` when it passes."""
        assert profile.verify is not None
        from pytest_pacts.planner.inline import inline_plan, inline_step

        expect = profile.verify.expect or "url_contains:" + (
            urlsplit(profile.verify.url).path or "/"
        )
        source = SourceRef(path=str(self.config.path or "pacts-auth.yaml"))
        step = inline_step(0, None, "wait", None, expect, "abort", source, env={})
        plan = inline_plan(f"{profile.req_id}-verify", profile.verify.url, (step,), source)
        options: dict[str, Any] = {
            **self.context_options,
            "storage_state": str(self.vault.state_path(key)),
        }
        context = self._need(browser, profile).new_context(**options)
        try:
            record = self.run(plan, context.new_page(), True)
        finally:
            context.close()
        if record.verdict == "pass":
            return None
        return record.rca.message.splitlines()[0] if record.rca.message else record.verdict

    def _login(
        self,
        profile: Profile,
        account: Account,
        key: str,
        base: str,
        browser: Browser | None,
        reason: str,
    ) -> str:
        who = _who(profile, account)
        self.say(f"{who}: logging in ({reason})")
        try:
            plan = self.config.login_plan(profile, account, self.loader)
        except (AuthConfigError, PactsError) as exc:
            raise AuthFailed(profile.name, f"{who}: {exc}", RcaClass.DATA_ISSUE) from None
        options: dict[str, Any] = dict(self.context_options)
        context = self._need(browser, profile).new_context(**options)
        try:
            page = context.new_page()
            record = self.run(plan, page, False)
            self.logins += 1
            if record.verdict == "fail":
                alerts = _masked(_alerts(page), plan, self.loader)
                self._failure(profile, account, key, base, record, alerts)
            state = context.storage_state()
        finally:
            context.close()
        meta = SessionMeta(profile.name, account.number, base, time.time(), self.run_id)
        path = str(self.vault.save(key, dict(state), meta))
        self._ready[key] = (path, meta.created)
        healed = (
            f" after {record.heal_count} heal(s) of the login flow (review them with "
            "`pacts heals list`)"
            if record.healed
            else ""
        )
        self.say(f"{who}: logged in{healed}; session saved for reuse")
        return path

    def _failure(
        self,
        profile: Profile,
        account: Account,
        key: str,
        base: str,
        record: RunRecord,
        alerts: list[str],
    ) -> NoReturn:
        from pytest_pacts.engine.api import render_failure

        # one root cause for the failure, the same on every line: the login's own (issue 39:
        # the outer line said data_issue where the login's said assertion_mismatch)
        rca = record.rca.rca_class
        data = rca in _DATA_CLASSES
        summary = (record.rca.message or "the login failed").splitlines()[0]
        what = (
            "check the profile's credentials (its vars and the environment variables they "
            "name) and that the account may log in"
            if data
            else "check that the login page is up and its flow still works "
            "(`pacts discover` on the profile's login flow shows each step)"
        )
        said = "".join(f"\nThe page said: {text}" for text in alerts)
        text = (
            f"{_who(profile, account)}: the login failed, so no requirement of this profile "
            f"can start signed in (root cause: {rca.value}). What to do: {what}.{said}\n"
            f"The login flow ({profile.source.render()}):\n{render_failure(record)}"
        )
        self.vault.save_failure(
            key,
            SessionMeta(
                profile.name,
                account.number,
                base,
                time.time(),
                self.run_id,
                failed=summary,
                rca=rca.value,
                report=text,
            ),
        )
        failure = AuthFailed(
            profile.name, text, rca, short=_short(_who(profile, account), summary), key=key
        )
        self._failed[key] = failure
        raise failure


_ALERTS = "[role=alert], [role=status], [aria-live=assertive]"


def _alerts(page: Page) -> list[str]:
    """What the page announces after a failed login (its error message), at most 3 texts
    of 200 characters; nothing when the page does not answer within 2 s."""
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.runtime.bounded import call

    try:
        texts = call(
            page, "read the login page's alerts", page.locator(_ALERTS).all_inner_texts,
            timeout_ms=2000,
        )  # fmt: skip
    except PlaywrightError:
        return []
    return [" ".join(t.split())[:200] for t in texts if t.strip()][:3]


def _masked(texts: list[str], plan: Plan, loader: LoaderOptions) -> list[str]:
    """``texts`` with every secret value the login typed shown as ``***`` (a page may echo
    what was typed)."""
    from pytest_pacts.planner.templating import MASK, Resolver, TemplateError, reveal

    resolver = Resolver(loader.env, plan.requirement.vars, plan.secret_vars | loader.secret_vars)
    secrets: set[str] = set()
    for step in plan.steps:
        if step.value and resolver.is_secret(step.value):
            try:
                secrets.add(reveal(resolver.resolve(step.value)))
            except TemplateError:
                continue
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        texts = [t.replace(secret, MASK) for t in texts]
    return texts


def _short(who: str, summary: str) -> str:
    return (
        f"{who}: the login failed earlier in this run ({summary}); the full report is on "
        "the first requirement of this profile that ran"
    )


def _too_old(profile: Profile, created: float) -> bool:
    return profile.max_age is not None and time.time() - created > profile.max_age


def _who(profile: Profile, account: Account) -> str:
    many = len(profile.accounts) > 1
    return f"auth profile {profile.name!r}" + (
        f" (account {account.number} of {len(profile.accounts)})" if many else ""
    )
