"""``pacts auth list`` / ``pacts auth clear [PROFILE]``: the saved sessions of auth profiles.

Sessions are secrets: ``list`` shows which profile, account and deployment each one is for,
its age and whether it is past the profile's ``max_age``, never a value of it. ``clear``
deletes them (all, or one profile's), so the next run logs in again. The folder is the
project's ``pacts_auth_dir`` (default ``.pacts/auth`` in the rootdir), read as pytest reads it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pytest_pacts.cli.common import EXIT_OK
from pytest_pacts.cli.render import out


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "auth",
        help="list or delete the saved sessions of auth profiles (never their values)",
        description="The sessions auth profiles saved after logging in (pacts-auth.yaml). "
        "`list` shows each one's profile, account, deployment and age, never a value; "
        "`clear` deletes them so the next run logs in again.",
    )
    actions = parser.add_subparsers(dest="auth_action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the saved sessions, without their values")
    listing.add_argument("--json", action="store_true", help="print JSON instead of text")
    clear = actions.add_parser("clear", help="delete saved sessions (all, or one profile's)")
    clear.add_argument("profile", nargs="?", help="only this profile's sessions")
    for sub in (listing, clear):
        sub.add_argument(
            "--dir",
            type=Path,
            metavar="PATH",
            help="the sessions folder (default: the project's pacts_auth_dir, .pacts/auth)",
        )
        sub.set_defaults(func=run)


def _folder(args: argparse.Namespace) -> tuple[Path, Path]:
    """The sessions folder and the project's auth file."""
    from pytest_pacts.cli.project import pytest_config
    from pytest_pacts.pytest_plugin import options

    with pytest_config([Path.cwd()]) as config:
        settings = options.settings(config)
        root = config.rootpath
    folder = args.dir if args.dir is not None else root / settings.auth_dir
    return folder, root / settings.auth_file


def run(args: argparse.Namespace) -> int:
    from pytest_pacts.auth import AuthConfigError, Vault, load_profiles

    folder, auth_file = _folder(args)
    vault = Vault(folder)
    if args.auth_action == "clear":
        removed = vault.clear(args.profile)
        what = f"of profile {args.profile!r} " if args.profile else ""
        out(f"{removed} saved session(s) {what}deleted from {folder}")
        return EXIT_OK
    try:
        profiles = load_profiles(auth_file).profiles
    except AuthConfigError:
        profiles = {}
    rows = []
    for _key, meta in vault.entries():
        profile = profiles.get(meta.profile)
        limit = profile.max_age if profile is not None else None
        state = "login failed" if meta.failed else "saved"
        if not meta.failed and limit is not None and meta.age() > limit:
            state = "expired"
        rows.append(
            {
                "profile": meta.profile,
                "account": meta.account,
                "base_url": meta.base_url,
                "age_s": round(meta.age()),
                "max_age_s": limit,
                "state": state,
            }
        )
    if args.json:
        out(json.dumps({"folder": str(folder), "sessions": rows}, indent=1))
        return EXIT_OK
    if not rows:
        out(f"no saved sessions in {folder}")
        return EXIT_OK
    out(f"{len(rows)} saved session(s) in {folder} (values never shown)")
    out(f"{'PROFILE':<16} {'ACCOUNT':>7} {'AGE':>8} {'STATE':<13} BASE URL")
    for row in rows:
        age = _age(int(str(row["age_s"])))
        out(
            f"{row['profile']!s:<16} {row['account']!s:>7} {age:>8} {row['state']!s:<13} "
            f"{row['base_url'] or '-'}"
        )
    return EXIT_OK


def _age(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h"
