"""The web layer's one exception tree: each error knows its HTTP status and stable code."""

from __future__ import annotations

from pytest_pacts.errors import PactsError


class WebError(PactsError):
    """A request that cannot be served; turned into an :class:`~pytest_pacts.web.dto.ApiError`
    JSON body (API) or an error page (dashboard)."""

    status = 400
    code = "BAD_REQUEST"

    def __init__(self, message: str, *, code: str | None = None, details: list[str] | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = list(details or [])


class Invalid(WebError):
    status = 422
    code = "INVALID"


class Unauthorized(WebError):
    status = 401
    code = "UNAUTHORIZED"


class Forbidden(WebError):
    status = 403
    code = "FORBIDDEN"


class NotFound(WebError):
    status = 404
    code = "NOT_FOUND"


class Conflict(WebError):
    status = 409
    code = "CONFLICT"


class TooLarge(WebError):
    status = 413
    code = "TOO_LARGE"


class Unavailable(WebError):
    status = 503
    code = "STORE_UNAVAILABLE"
