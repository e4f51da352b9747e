"""The public contract of knowledge sources, their sync runs and pushed records."""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.config import JsonDict

from app.auth.acl import DocumentAccess
from app.kit.schemas import RequestModel, sent
from app.kit.strings import Metadata, StoredText
from app.knowledge_bases.schemas import NAME_PATTERN
from app.sources.adapters.http import Crawl

SourceKind = Literal["folder", "http", "records"]
RunStatus = Literal["queued", "running", "succeeded", "failed"]
ItemAction = Literal["add", "update", "delete", "unchanged"]
MAX_RECORDS = 1000
# The fields each kind takes besides the common ones (checked by the kind's config model).
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "folder": ("path", "include", "exclude"),
    "http": ("urls", "sitemaps", "crawl", "robots"),
    "records": (),
}
ALL_KIND_FIELDS = frozenset(f for fields in KIND_FIELDS.values() for f in fields)
# A number and a unit, from 60 s up to 999 days; each unit's digits are bounded so that the
# interval, stored in seconds as a 32-bit integer, never overflows, and so that the pattern in
# the spec refuses exactly what the API refuses.
_EVERY = re.compile(
    r"^(?:(?P<s>[6-9][0-9]|[1-9][0-9]{2,6})s|(?P<m>[1-9][0-9]{0,5})m"
    r"|(?P<h>[1-9][0-9]{0,3})h|(?P<d>[1-9][0-9]{0,2})d)$"
)
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def every_seconds(every: str) -> int:
    match = _EVERY.match(every)
    if match is None:
        raise ValueError("must be a number and a unit, from `60s` up to `999d`: `30m`, `1h`, `1d`")
    unit, number = next((u, n) for u, n in match.groupdict().items() if n is not None)
    return int(number) * _UNIT_S[unit]


class Schedule(RequestModel):
    every: str = Field(
        description="How often to sync: `30m`, `1h`, `1d` (from 1 minute up to 999 days).",
        json_schema_extra={"pattern": _EVERY.pattern},
    )

    @field_validator("every")
    @classmethod
    def _parse(cls, value: str) -> str:
        every_seconds(value)
        return value


class KindFields(RequestModel):
    """The fields of every kind, each taken only by its own kind."""

    path: str | None = Field(default=None, description="folder: an absolute directory path.")
    include: list[str] | None = Field(
        default=None, description="folder: fnmatch patterns of the relative paths to take."
    )
    exclude: list[str] | None = Field(default=None, description="folder: patterns to skip.")
    urls: list[str] | None = Field(default=None, description="http: pages.")
    sitemaps: list[str] | None = Field(default=None, description="http: sitemap URLs.")
    crawl: Crawl | None = Field(default=None, description="http: a same-host crawl from `urls`.")
    robots: bool | None = Field(default=None, description="http: honour robots.txt (default).")

    def kind_fields(self) -> dict[str, Any]:
        return {
            name: getattr(self, name) for name in ALL_KIND_FIELDS if name in self.model_fields_set
        }


_SOME: JsonDict = {"type": "array", "minItems": 1}


def _own_fields_schema() -> JsonDict:
    """What `_own_fields_only` and each kind's config require, said in the spec: a chain of
    `if`/`else` on `kind` (SDK generators read it as no constraint; a body-level `oneOf`
    made them drop the operation)."""
    # What each kind's config model requires besides refusing the other kinds' fields.
    needs: dict[str, JsonDict] = {
        "folder": {"required": ["path"]},
        "http": {"anyOf": [sent("urls", _SOME), sent("sitemaps", _SOME)]},
        "records": {},
    }
    schema: JsonDict = {}
    for kind in reversed(KIND_FIELDS):
        foreign = sorted(ALL_KIND_FIELDS - set(KIND_FIELDS[kind]))
        then: JsonDict = {"properties": dict.fromkeys(foreign, False), **needs[kind]}
        branch: JsonDict = {"if": {"properties": {"kind": {"const": kind}}}, "then": then}
        if schema:
            branch["else"] = schema
        schema = branch
    return schema


class SourceCreate(KindFields):
    model_config = ConfigDict(json_schema_extra=_own_fields_schema())

    name: str = Field(min_length=1, max_length=64, pattern=NAME_PATTERN)
    kind: SourceKind
    access: DocumentAccess | None = Field(
        default=None, description="Who may read the source's documents; absent: everyone."
    )
    metadata: Metadata = Field(
        default_factory=dict, description="Merged into every document's metadata."
    )
    schedule: Schedule | None = None

    @model_validator(mode="after")
    def _own_fields_only(self) -> SourceCreate:
        foreign = sorted(set(self.kind_fields()) - set(KIND_FIELDS[self.kind]))
        if foreign:
            raise ValueError(f"a {self.kind} source does not take {', '.join(foreign)}")
        return self


class SourceUpdate(KindFields):
    """Only the fields given change; `schedule: null` stops the schedule, `access: null`
    lets everyone read. Changed fields apply from the next sync."""

    name: str | None = Field(default=None, min_length=1, max_length=64, pattern=NAME_PATTERN)
    access: DocumentAccess | None = None
    metadata: Metadata | None = None
    schedule: Schedule | None = None


class ScheduleRead(BaseModel):
    every: str
    next_run_at: datetime | None


class SourceRead(BaseModel):
    id: uuid.UUID
    knowledge_base_id: uuid.UUID
    name: str
    kind: SourceKind
    config: dict[str, Any] = Field(description="The kind's fields (`path`, `urls` ...).")
    access: dict[str, Any] | None
    metadata: dict[str, Any]
    schedule: ScheduleRead | None
    created_at: datetime
    updated_at: datetime


class SyncRequest(RequestModel):
    dry_run: bool = Field(default=False, description="Answer what a sync would do, and do nothing.")


class ItemError(BaseModel):
    item: str
    error: str


class RunCounts(BaseModel):
    to_add: int = 0
    to_update: int = 0
    to_delete: int = 0
    unchanged: int = 0
    failed: int = 0


class PlannedItem(BaseModel):
    item: str
    action: ItemAction


class SourceRunRead(BaseModel):
    id: uuid.UUID
    source_id: uuid.UUID
    status: RunStatus
    trigger: Literal["manual", "schedule"]
    dry_run: bool
    counts: RunCounts
    errors: list[ItemError] = Field(description="Items that failed; the others went on.")
    error: str | None = Field(description="Why the run failed as a whole, if it did.")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    duration_s: float | None


class SyncPlanRead(SourceRunRead):
    """A dry run: the counts and every item with what a sync would do to it."""

    items: list[PlannedItem]


class SourceHealthRead(BaseModel):
    ok: bool
    detail: str
    checked_at: datetime


class RecordWrite(RequestModel):
    op: Literal["upsert", "delete"]
    record_id: StoredText = Field(min_length=1, max_length=256)
    title: StoredText | None = Field(default=None, max_length=1000)
    content: StoredText | None = Field(default=None, description="The record's text.")
    fields: dict[str, Any] | None = Field(
        default=None, description="Or its fields, written as sections `## name` then value."
    )
    metadata: Metadata = Field(default_factory=dict)
    access: DocumentAccess | None = Field(
        default=None, description="Overrides the source's `access` for this record."
    )

    @model_validator(mode="after")
    def _content(self) -> RecordWrite:
        if self.op == "upsert" and (self.content is None) == (self.fields is None):
            raise ValueError("an upsert needs exactly one of `content` and `fields`")
        return self


class RecordsPush(RequestModel):
    records: list[RecordWrite] = Field(min_length=1, max_length=MAX_RECORDS)


class RecordResult(BaseModel):
    record_id: str
    op: Literal["upsert", "delete"]
    result: Literal["created", "updated", "unchanged", "deleted", "absent"]
    document_id: uuid.UUID | None


class RecordsResult(BaseModel):
    results: list[RecordResult]
