"""One error family for the whole service, rendered as RFC 9457 problem+json."""

from __future__ import annotations

from typing import Any, ClassVar

PROBLEM_BASE = "https://arbor.dev/problems/"


class AppError(Exception):
    """Base of every error the service answers on purpose; `type_` is a stable slug."""

    status: ClassVar[int] = 500
    type_: ClassVar[str] = "internal-error"
    title: ClassVar[str] = "Internal server error"

    def __init__(self, detail: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra or {}

    @property
    def type_uri(self) -> str:
        return PROBLEM_BASE + self.type_


class BadRequest(AppError):
    status = 400
    type_ = "bad-request"
    title = "Bad request"


class Unauthorized(AppError):
    status = 401
    type_ = "unauthorized"
    title = "Authentication required"


class Forbidden(AppError):
    status = 403
    type_ = "forbidden"
    title = "Not allowed"


class NotFound(AppError):
    status = 404
    type_ = "not-found"
    title = "Not found"


class Conflict(AppError):
    status = 409
    type_ = "conflict"
    title = "Conflict"


class PayloadTooLarge(AppError):
    status = 413
    type_ = "payload-too-large"
    title = "Payload too large"


class UnsupportedMediaType(AppError):
    status = 415
    type_ = "unsupported-media-type"
    title = "Unsupported media type"


class ValidationFailed(AppError):
    status = 422
    type_ = "validation-error"
    title = "Validation failed"


class UnprocessableDocument(AppError):
    """The bytes were accepted as a format but cannot be parsed (corrupt, encrypted, hostile)."""

    status = 422
    type_ = "unprocessable-document"
    title = "Document cannot be processed"


class RateLimited(AppError):
    status = 429
    type_ = "rate-limited"
    title = "Too many requests"


class ServiceUnavailable(AppError):
    status = 503
    type_ = "service-unavailable"
    title = "Service unavailable"


class DatabaseUnavailable(ServiceUnavailable):
    """The database cannot be reached: down, restarting, refusing connections, or every pooled
    connection busy. Nothing about the request was wrong; the same request may work later."""

    type_ = "database-unavailable"
    title = "Database unavailable"
    retry_after_s: ClassVar[int] = 5

    def __init__(
        self,
        detail: str = "The database is unavailable; try again shortly.",
        *,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            detail, extra={"headers": {"Retry-After": str(self.retry_after_s)}, **(extra or {})}
        )
