"""Regenerate sample_requirements/login.xlsx (committed; run after changing this file)."""

from __future__ import annotations

from pathlib import Path

from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

ROOT = Path(__file__).resolve().parent.parent

SPEC = WorkbookSpec(
    sheet="Login",
    title_rows=("Swag Labs demo - login requirements", "Owner: QA team - review weekly"),
    requirements=[
        SheetRequirement(
            "REQ-LOGIN-001",
            "/",
            [
                ("Username@LoginForm", "fill", "{{vars.user}}", "field_populated"),
                (
                    "Password@LoginForm",
                    "fill",
                    "{{env.PACTS_DEMO_PASSWORD:secret_sauce}}",
                    "field_populated",
                ),
                ("Login@LoginForm", "click", "", "navigates_to:Products"),
                ("Open Menu", "click", "", "element_visible:Logout"),
                ("Logout", "click", "", "element_visible:Username"),
            ],
            title="A standard user logs in and out",
            tags="smoke, login",
        ),
        SheetRequirement(
            "REQ-LOGIN-002",
            "/",
            [
                ("LoginAs", "use", "", ""),
                ("", "wait", "", "text_visible:Sorry, this user has been locked out"),
                ("Username@LoginForm", "focus", "", ""),
                ("Username@LoginForm", "press", "Control+A", ""),
                ("Username@LoginForm", "press", "Backspace", "value:"),
            ],
            title="A locked-out user sees why",
            tags="login",
        ),
        SheetRequirement(
            "REQ-LOGIN-003",
            "/",
            [
                ("Login@LoginForm", "click", "", "text_visible:Username is required"),
                ("navigation", "use", "url=/inventory.html; wait_for=url_contains:index", ""),
            ],
            title="Validation and the login guard",
            tags="login",
        ),
    ],
    blocks={
        "LoginAs": (
            "user=locked_out_user",
            [
                ("Username@LoginForm", "fill", "{{params.user}}", "field_populated"),
                ("Password@LoginForm", "fill", "{{env.PACTS_DEMO_PASSWORD:secret_sauce}}", ""),
                ("Login@LoginForm", "click", "", ""),
            ],
        ),
    },
    config={"user": "standard_user"},
)

if __name__ == "__main__":
    out = write_workbook(ROOT / "sample_requirements" / "login.xlsx", SPEC)
    print(f"wrote {out}")
