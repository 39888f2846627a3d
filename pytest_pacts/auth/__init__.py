"""Auth profiles: a login flow run once per run, its session saved and reused (docs/user-guide.md,
"Log in once")."""

from __future__ import annotations

from pytest_pacts.auth.profiles import (
    DEFAULT_AUTH_FILE,
    Account,
    AuthConfig,
    AuthConfigError,
    Profile,
    Verify,
    load_profiles,
)
from pytest_pacts.auth.sessions import AuthFailed, RunOnPage, Sessions
from pytest_pacts.auth.vault import DEFAULT_AUTH_DIR, SessionMeta, Vault

__all__ = [
    "DEFAULT_AUTH_DIR",
    "DEFAULT_AUTH_FILE",
    "Account",
    "AuthConfig",
    "AuthConfigError",
    "AuthFailed",
    "Profile",
    "RunOnPage",
    "SessionMeta",
    "Sessions",
    "Vault",
    "Verify",
    "load_profiles",
]
