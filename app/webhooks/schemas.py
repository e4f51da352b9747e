"""The public contract of webhooks."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, model_validator

from app.events.schemas import EventType
from app.kit.fetch import URL_PATTERN
from app.kit.schemas import RequestModel
from app.kit.strings import StoredText, check_text
from app.webhooks.destinations import MAX_URL_CHARS, check_url

WebhookUrl = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_URL_CHARS,
        description="Where events are POSTed: an http or https URL without user name or "
        "password. Outside development it must resolve to public addresses only.",
        examples=["https://example.com/hooks/arbor"],
        json_schema_extra={"pattern": URL_PATTERN},
    ),
    AfterValidator(check_text),
    AfterValidator(check_url),
]

TYPES_DESCRIPTION = "Only events of these types; null (the default) for every type."
DESCRIPTION_CHARS = 1000


class WebhookCreate(RequestModel):
    url: WebhookUrl
    types: list[EventType] | None = Field(default=None, min_length=1, description=TYPES_DESCRIPTION)
    knowledge_base_id: uuid.UUID | None = Field(
        default=None, description="Only this knowledge base's events; null for all of them."
    )
    description: StoredText = Field(default="", max_length=DESCRIPTION_CHARS)


class WebhookUpdate(RequestModel):
    """Fields that change; those left out stay. `types: null` means every type."""

    url: WebhookUrl | None = None
    types: list[EventType] | None = Field(default=None, min_length=1, description=TYPES_DESCRIPTION)
    active: bool | None = Field(
        default=None,
        description="false pauses delivery; true resumes it where it stopped, retrying at once.",
    )
    description: StoredText | None = Field(default=None, max_length=DESCRIPTION_CHARS)

    @model_validator(mode="after")
    def _no_null_but_types(self) -> WebhookUpdate:
        # Left out means "unchanged"; an explicit null would silently change nothing.
        for name in ("url", "active", "description"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"`{name}` cannot be null; leave it out to keep it")
        return self


class WebhookRead(BaseModel):
    id: uuid.UUID
    url: str
    types: list[EventType] | None = Field(description=TYPES_DESCRIPTION)
    knowledge_base_id: uuid.UUID | None
    description: str
    active: bool = Field(
        description="false when paused, or turned off after failing for "
        "`ARBOR_WEBHOOK_DISABLE_AFTER_H` hours."
    )
    created_at: datetime
    updated_at: datetime
    cursor: str = Field(
        description="Its place in the event feed: `GET /v1/events?after=<cursor>` lists what "
        "it has not delivered yet (and events its filters skip)."
    )
    last_event_id: int | None = Field(description="The last event delivered.")
    delivered_at: datetime | None = Field(description="When the last event was delivered.")
    attempts: int = Field(description="Failed attempts in a row at the next event.")
    next_attempt_at: datetime = Field(
        description="When the dispatcher next looks at it (a retry waits 2**attempts times "
        "the retry period, at most an hour)."
    )
    failing_since: datetime | None = Field(description="The first failure of the current run.")
    last_status: int | None = Field(
        description="The HTTP status of the last attempt; null when none was received."
    )
    last_error: str | None = Field(description="Why the last attempt failed; null after a 2xx.")


class WebhookWithSecret(WebhookRead):
    secret: str = Field(
        description="The signing secret (`whsec_` + base64). Shown only in this response; "
        "store it now. See docs/webhooks.md for checking signatures."
    )
