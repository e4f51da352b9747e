"""The public contract of documents and their ingestion state."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.auth.acl import DocumentAccess
from app.ingestion.parsers import supported_formats
from app.ingestion.tree import DocumentNode, NodeEnrichment, NodeKind, NodeRange
from app.kit.schemas import RequestModel
from app.kit.strings import JsonObject, Metadata, StoredText

DocumentStatus = Literal["queued", "parsing", "chunking", "embedding", "ready", "failed"]
TERMINAL_STATUSES = frozenset({"ready", "failed"})


def optional_title(value: str | None) -> str | None:
    """A title without its surrounding whitespace; a blank one is no title (the parsed title or
    the file name stands in), as an empty multipart field always was."""
    return (value.strip() or None) if value is not None else None


def external_id_not_blank(value: str | None) -> str | None:
    """An external id is kept as given, but one of whitespace only names nothing (a multipart
    form drops an empty field; a JSON `"  "` was stored as an id)."""
    if value is not None and not value.strip():
        raise ValueError("may not be blank; leave it out for a document without one")
    return value


class DocumentFields(RequestModel):
    """What an upload says besides its content: the fields of a JSON upload, and the form
    fields of a multipart one (which are checked by this model too)."""

    title: StoredText | None = Field(
        default=None, max_length=1000, description="Blank: none (the parsed title stands in)."
    )
    format: str | None = Field(
        default=None, description="A supported format name; detected when absent."
    )
    metadata: Metadata = Field(default_factory=dict)
    source_uri: StoredText | None = Field(default=None, max_length=4000)
    external_id: StoredText | None = Field(default=None, min_length=1, max_length=256)
    chunking: JsonObject | None = Field(
        default=None, description="Overrides the knowledge base's chunking for this upload."
    )
    access: DocumentAccess | None = Field(
        default=None,
        description="Who may read the document; absent: everyone in the project.",
    )

    _title = field_validator("title")(optional_title)
    _external_id = field_validator("external_id")(external_id_not_blank)

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str | None) -> str | None:
        # Stored as given, an unknown name would fail every ingestion and reindex later.
        if value is not None and value not in supported_formats():
            raise ValueError(f"unknown format; one of {', '.join(supported_formats())}")
        return value


class DocumentCreate(DocumentFields):
    """A JSON upload of text (markdown or plain); files go through multipart."""

    text: str = Field(min_length=1, description="The document's text.")
    format: Literal["markdown", "text"] | None = Field(
        default=None, description="Detected when absent."
    )


class DocumentFromUrl(DocumentFields):
    """A JSON upload of a URL to fetch (not in `documents/batch`)."""

    url: str = Field(
        min_length=1,
        max_length=4000,
        description="http or https; public addresses only unless the operator allows others "
        "(docs/sources.md). An HTML page is reduced to its main content, other formats go to "
        "their parsers; `source_uri` defaults to the URL.",
    )


def _not_nullable(schema: dict[str, Any]) -> None:
    """The schema of a field that may be left out but not sent as null: its non-null branch."""
    branches = schema.pop("anyOf")
    assert isinstance(branches, list)
    schema.update(next(b for b in branches if isinstance(b, dict) and b.get("type") != "null"))
    schema.pop("default", None)


class DocumentUpdate(RequestModel):
    """A change in place (no ingestion): only the fields given change, at least one.

    `title` and `metadata` may not be null (leave them out to keep them); `source_uri: null`
    removes the URI and `access: null` lets everyone in the project read the document.
    """

    # Every field is optional and unknown ones are refused: one is what "at least one" takes.
    model_config = ConfigDict(json_schema_extra={"minProperties": 1})

    title: StoredText | None = Field(
        default=None,
        min_length=1,
        max_length=1000,
        description="The new title; also the `doc_title` of every chunk of the document.",
        json_schema_extra=_not_nullable,
    )
    metadata: Metadata | None = Field(
        default=None,
        json_schema_extra=_not_nullable,
        description="Replaces the whole metadata object (no merge: send every key to keep; "
        "`{}` clears it). Chunks without metadata of their own carry the new object.",
    )
    source_uri: StoredText | None = Field(
        default=None, max_length=4000, description="null removes it."
    )
    access: DocumentAccess | None = Field(
        default=None,
        description="Who may read the document; null: everyone in the project.",
    )

    @field_validator("title", "metadata")
    @classmethod
    def _not_null(cls, value: object) -> object:
        # Defaults are not validated: None here was sent as an explicit null.
        if value is None:
            raise ValueError("may not be null; leave the field out to keep it")
        return value

    @field_validator("title")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("may not be blank")
        return value.strip()

    @model_validator(mode="after")
    def _something(self) -> DocumentUpdate:
        if not self.model_fields_set:
            raise ValueError("give at least one of title, metadata, source_uri, access")
        return self


MAX_BATCH_DOCUMENTS = 1000


class DocumentBatchCreate(RequestModel):
    """Many JSON uploads in one request: accepted together or not at all."""

    documents: list[DocumentCreate] = Field(min_length=1, max_length=MAX_BATCH_DOCUMENTS)


class Progress(BaseModel):
    stage: DocumentStatus
    chunks_total: int = 0
    chunks_embedded: int = 0
    attempts: int = 0
    retrying: bool = False


class DocumentRead(BaseModel):
    id: uuid.UUID
    knowledge_base_id: uuid.UUID
    title: str
    external_id: str | None
    source_uri: str | None
    filename: str | None
    format: str | None
    content_sha256: str | None
    size_bytes: int
    metadata: dict[str, Any]
    access: DocumentAccess | None = None
    status: DocumentStatus
    error: str | None
    chunk_count: int
    embedded_count: int
    progress: Progress
    created_at: datetime
    updated_at: datetime
    source_id: uuid.UUID | None = Field(
        default=None, description="The knowledge source that wrote it (docs/sources.md)."
    )
    source_record_id: str | None = Field(
        default=None, description="Its item in that source: a record id, a path, a URL."
    )


class TreeRead(BaseModel):
    """The document tree; offsets count Unicode code points of the extracted text."""

    document_id: uuid.UUID
    format: str | None
    page_count: int | None
    ocr_pages: list[int] | None = Field(
        default=None, description="The pages (of a PDF or image) whose text was read by OCR."
    )
    root: DocumentNode


class AncestorRead(BaseModel):
    """A node without its subtree: a step on the way from the root to another node."""

    node_id: str
    kind: NodeKind
    range: NodeRange
    text: str
    title: str | None = Field(default=None, exclude_if=lambda v: v is None)
    level: int | None = Field(default=None, exclude_if=lambda v: v is None)
    page_start: int | None = None
    page_end: int | None = None
    enrichment: NodeEnrichment | None = Field(default=None, exclude_if=lambda v: v is None)


class DocumentDeleteResult(BaseModel):
    deleted: int = Field(description="Documents deleted (with `dry_run`: that would be).")
    dry_run: bool = False


class DocumentDeleteByFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")

    filter: dict[str, Any] = Field(
        description="The filter language of search (docs/search.md) over document fields, "
        "`status` and `metadata.<key>`; at least one condition."
    )
    dry_run: bool = Field(default=False, description="Count the matches, delete nothing.")


class DocumentBatchItem(BaseModel):
    created: bool = Field(description="False: the same bytes were uploaded before; no new work.")
    document: DocumentRead


class DocumentBatchRead(BaseModel):
    """One result per uploaded document, in the order of the request."""

    results: list[DocumentBatchItem]
