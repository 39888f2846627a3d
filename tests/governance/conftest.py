"""Shared fixtures: a small login recipe and a heal of its username field."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pytest_pacts.models.recipe import (
    ActionEntry,
    JsonObject,
    Recipe,
    SelectorEntry,
    WorkflowStep,
)

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

USER = "Username@LoginForm"
LOGIN = "Login@LoginForm"
LABEL_LOCATOR: JsonObject = {"strategy": "label", "label": "Username", "confidence": 0.92}
ROLE_LOCATOR: JsonObject = {"strategy": "role_name", "role": "textbox", "name": "Username"}


@pytest.fixture
def recipe() -> Recipe:
    steps = (
        WorkflowStep(id="s001", op="goto", value="{{vars.base}}/login"),
        WorkflowStep(
            id="s002", op="fill", target=USER, value="{{env.USER}}", expect="field_populated"
        ),
        WorkflowStep(id="s003", op="click", target=LOGIN, expect="navigates_to:Products"),
    )
    return Recipe(
        req_id="REQ-LOGIN-001",
        plan_hash="abc123",
        workflow=steps,
        actions={
            "s001": ActionEntry(method="goto"),
            "s002": ActionEntry(method="fill", target=USER),
            "s003": ActionEntry(method="click", target=LOGIN),
        },
        selectors={
            USER: SelectorEntry(primary=LABEL_LOCATOR),
            LOGIN: SelectorEntry(
                primary={"strategy": "role_name", "role": "button", "name": "Login"},
                fallbacks=({"strategy": "css", "css": "#login-button"},),
            ),
        },
        fingerprints={USER: {"tag": "input", "id": "user-name"}},
        policies={"global": {"min_score": 0.8, "min_margin": 0.1}},
    )
