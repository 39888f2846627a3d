"""Request bodies of the write endpoints, validated before anything runs."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RunBody(_Body):
    """``POST /api/run``."""

    paths: list[str] = Field(
        min_length=1, description="Requirement files or folders, relative to the project."
    )
    base_url: str | None = Field(default=None, description="The app under test (--base-url).")
    keyword: str | None = Field(default=None, description="A pytest -k expression.")
    session: str | None = Field(
        default=None, description="Web session; one run per session at a time (default: default)."
    )


class AcceptBody(_Body):
    """``POST /api/proposals/{id}/accept``."""

    by: str | None = Field(default=None, min_length=1, max_length=100, description="Who decides.")
    confirm: str | None = Field(
        default=None, description='"GO" approves a major proposal; anything else does not.'
    )


class RejectBody(_Body):
    """``POST /api/proposals/{id}/reject``."""

    by: str | None = Field(default=None, min_length=1, max_length=100, description="Who decides.")
    reason: str | None = Field(default=None, max_length=2000, description="Kept in the audit log.")
