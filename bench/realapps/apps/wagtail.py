"""Wagtail: a CMS admin (pages, users), the project each release's own ``wagtail start``
makes, served by ``manage.py runserver``.

The admin has the widgets issue 38 is about: the page editor's "Publish" sits in a drop-up
menu beside "Save draft" (opened by a nameless arrow in 5.2, by a "More actions" button with
``aria-expanded`` in 7.2), the user form is split into tabs ("Account", "Roles") whose panels
are hidden until chosen, and the add-user page's heading says "Add user" as its submit
button does (5.2). The project is the release's own template (so the drift between versions
is Wagtail's), migrated and seeded once per version into a template folder in the cache and
copied into each start's work folder.

Accounts: ``PACTS_WAGTAIL_USER`` (a superuser) and ``PACTS_WAGTAIL_EDITOR`` (a second
superuser), both with ``PACTS_WAGTAIL_PASSWORD``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, serve_django

VERSIONS = ("5.2.8", "7.2.3")

# Per Wagtail version, the Django it runs with on Python 3.11 (what pip chose for it here).
PINS: dict[str, tuple[str, ...]] = {
    "5.2.8": ("wagtail==5.2.8", "Django==5.0.14"),
    # django-tasks 0.9 cannot enqueue on Python 3.11 (its generic TaskResult sets an
    # attribute on a frozen dataclass), which breaks every page save: 0.8 is what works
    "7.2.3": ("wagtail==7.2.3", "Django==5.2.19", "django-tasks==0.8.1"),
}

ENV = {
    "PACTS_WAGTAIL_USER": "admin",
    "PACTS_WAGTAIL_EDITOR": "editor",
    "PACTS_WAGTAIL_PASSWORD": "Quality-Gate-2024",
}

# Two superusers and three pages under the site's home page (each flow that edits a page
# uses one no other flow reads).
_SEED = textwrap.dedent(
    """\
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cmsdemo.settings.dev")
    django.setup()

    from django.contrib.auth import get_user_model  # noqa: E402
    from wagtail.models import Page  # noqa: E402

    User = get_user_model()
    password = os.environ["PACTS_WAGTAIL_PASSWORD"]
    for name in (os.environ["PACTS_WAGTAIL_USER"], os.environ["PACTS_WAGTAIL_EDITOR"]):
        User.objects.create_superuser(name, name + "@example.com", password)

    home = Page.objects.get(depth=2)
    for title, slug in (("About us", "about-us"), ("Opening hours", "opening-hours"),
                        ("Old news", "old-news")):
        home.add_child(instance=Page(title=title, slug=slug))
    """
)


def _venv_name(version: str) -> str:
    return f"wagtail-{version}"


def install(version: str) -> Path:
    return ensure_venv(_venv_name(version), list(PINS[version]))


def _env() -> dict[str, str]:
    return {
        **ENV,
        "PYTHONDONTWRITEBYTECODE": "1",
        "DJANGO_SETTINGS_MODULE": "cmsdemo.settings.dev",
    }


def _template(version: str, venv: Path) -> Path:
    """The release's own project, migrated and seeded, built once in the venv folder."""
    digest = hashlib.sha256(_SEED.encode() + repr(sorted(ENV.items())).encode()).hexdigest()
    folder = venv / f"template-{digest[:12]}"
    if folder.exists():
        return folder
    bin_dir = venv / "bin"
    with tempfile.TemporaryDirectory(prefix="pacts-wagtail-build-", dir=venv) as tmp:
        root = Path(tmp) / "site"
        root.mkdir()
        env = {**os.environ, **_env()}
        run = [
            [str(bin_dir / "wagtail"), "start", "cmsdemo", str(root)],
            [str(bin_dir / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
        ]
        for argv in run:
            subprocess.run(argv, cwd=root, env=env, check=True, timeout=600)
        (root / "seed.py").write_text(_SEED)
        subprocess.run(
            [str(bin_dir / "python"), "seed.py"], cwd=root, env=env, check=True, timeout=300
        )
        os.replace(root, folder)  # atomic: two builds at once both end well
    return folder


def start(version: str, workdir: Path) -> Served:
    venv = install(version)
    template = _template(version, venv)
    shutil.copytree(template, workdir, dirs_exist_ok=True)
    return serve_django(venv, workdir, _env(), "admin/login/", timeout_s=120)


APP = AppSpec(
    name="wagtail",
    kind="CMS admin (Django, drop-up and row menus, tabbed forms)",
    versions=VERSIONS,
    install=install,
    start=start,
    env=ENV,
)
