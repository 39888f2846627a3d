"""A secret whose value is also one of the file's own words is said at collection
(planner/secret_words.py; docs/user-guide.md, "Templates and secrets").

Every ``{{env.*}}`` value is masked wherever it occurs, in any letter case. A user name kept in
the environment is then masked inside ordinary words: with ``admin`` as the Wagtail user, the
URL ``/admin/login/`` printed as ``/***/login/`` and "Administrator" as "***istrator"
(docs/real-apps.md, Wagtail). The masking stays; the person is told why, once per var.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_pacts.planner.secret_words import secrets_in_own_words

from .conftest import load

FILE = """
requirements:
  - req_id: REQ-1
    title: Sign in to the admin
    url: /admin/login/
    steps:
      - "Username | fill | {{env.APP_USER}} | field_populated"
      - "Password | fill | {{env.APP_PASSWORD}} | field_populated"
      - "Sign in | click | | navigates_to:Dashboard"
  - req_id: REQ-2
    url: /users/
    steps:
      - "Administrator | check | | checked"
      - "Notes | fill | written by {{env.APP_USER}} | field_populated"
"""


def test_a_secret_that_is_one_of_the_files_words_is_said_once(
    write: Callable[[str, str], Path],
) -> None:
    plans = load(write("app.req.yaml", FILE), env={"APP_USER": "x", "APP_PASSWORD": "y"}).plans
    env = {"APP_USER": "Admin", "APP_PASSWORD": "Quality-Gate-2024"}
    found = secrets_in_own_words(plans, env)
    # once for the user (its first place: the URL, in any letter case); the password is in
    # no word of the file, and a template's own text is not a word the file shows
    assert [(f.var, f.where, f.text) for f in found] == [
        ("APP_USER", "REQ-1's URL", "/admin/login/")
    ]
    message = found[0].message("app.req.yaml")
    # it names the var and the place, never the value or the words that hold it
    assert "{{env.APP_USER}}" in message and "REQ-1's URL" in message
    assert "admin" not in message.lower()
    # a value too short to be masked, or one found nowhere, says nothing
    assert secrets_in_own_words(plans, {"APP_USER": "adm", "APP_PASSWORD": "s3cr3t!"}) == []
    assert [f.where for f in secrets_in_own_words(plans, {"APP_USER": "strator"})] == [
        "REQ-2 step 1"
    ]
