"""The public contract of chunks: text, lineage, optional vector."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, field_validator, model_validator

from app.ingestion.chunking.base import ChunkSpan
from app.kit.schemas import RequestModel
from app.kit.strings import Metadata, StoredText, check_text
from app.kit.vectors import storable_vector_schema

MAX_CHUNK_CHARS = 100_000
MAX_BULK_CHUNKS = 50_000


# The columns are Postgres `integer`: a larger number is a 422 here, not an overflow (a 500)
# when the row is written.
INT4_MAX = 2**31 - 1


class ChunkLineage(BaseModel):
    """Where a chunk came from in its document's tree (seed 000's ChunkRecord)."""

    chunk_index: int = Field(default=0, ge=0, le=INT4_MAX)
    node_path: list[str] = Field(default_factory=list, description="Node ids, root to leaf.")
    depth: int = Field(default=0, ge=0, le=INT4_MAX)
    leaf_node_id: str | None = None
    section_titles: list[str] = Field(default_factory=list)
    doc_title: str = ""
    page_start: int | None = Field(default=None, ge=1, le=INT4_MAX)
    page_end: int | None = Field(default=None, ge=1, le=INT4_MAX)
    start_offset: int | None = Field(
        default=None, ge=0, le=INT4_MAX, description="Unicode code points."
    )
    end_offset: int | None = Field(default=None, ge=0, le=INT4_MAX)


class ChunkContent(ChunkLineage, RequestModel):
    """A chunk as a client writes it, whatever document it goes to."""

    text: StoredText = Field(min_length=1, max_length=MAX_CHUNK_CHARS)
    vector: list[float] | str | None = Field(
        default=None,
        description="Supply to skip embedding; length must match the KB. Either a list of "
        "numbers, or the vector's little-endian float32 bytes in base64 (what OpenAI's "
        '`encoding_format: "base64"` returns): a quarter of the size, and for bulk loads '
        "parsed some 40 times faster.",
        json_schema_extra=storable_vector_schema,
    )
    metadata: Metadata = Field(default_factory=dict)

    @field_validator("node_path", "section_titles", "leaf_node_id", "doc_title")
    @classmethod
    def _storable(cls, value: list[str] | str | None) -> list[str] | str | None:
        # Checked here, not in ChunkLineage, which also shapes what is read back.
        for text in [value] if isinstance(value, str) else value or []:
            check_text(text)
        return value

    @model_validator(mode="after")
    def _ordered(self) -> ChunkContent:
        for first, last in (("start_offset", "end_offset"), ("page_start", "page_end")):
            low, high = getattr(self, first), getattr(self, last)
            if low is not None and high is not None and high < low:
                raise ValueError(f"{last} ({high}) is before {first} ({low})")
        return self


class ChunkUpsert(ChunkContent):
    doc_id: StoredText = Field(
        min_length=1,
        max_length=256,
        description="A document id, or an external id; an unknown one creates a document.",
    )


class ChunkBulkItem(ChunkUpsert):
    chunk_id: uuid.UUID | None = Field(
        default=None,
        description="Generated when absent. Unique within the knowledge base: another "
        "knowledge base may hold the same id, and this write never touches its chunk.",
    )


class ChunkBulkUpsert(RequestModel):
    chunks: list[ChunkBulkItem] = Field(min_length=1, max_length=MAX_BULK_CHUNKS)


class ChunkRead(ChunkLineage):
    chunk_id: uuid.UUID
    doc_id: uuid.UUID
    text: str
    spans: list[ChunkSpan] = Field(
        default_factory=list,
        description="Set when the chunk holds several small sections merged together: each "
        "one's lineage and range (`node_path` names only their common ancestor).",
    )
    metadata: dict[str, Any]
    embedded: bool
    vector: list[float] | None = None
    created_at: datetime
    updated_at: datetime


class ChunkBulkResult(BaseModel):
    count: int
    chunk_ids: list[uuid.UUID]
    embedded: int = Field(description="How many of them now have a vector.")
    embedding_error: str | None = Field(
        default=None,
        description="Set when the knowledge base's embedder failed: the chunks sent without "
        "a vector were stored without one (not counted in `embedded`; text search finds "
        "them), and `POST .../chunks/embed` embeds them once it is back.",
    )
    index_job_id: uuid.UUID | None = Field(
        default=None,
        description="With `defer_index=true`: the job that rebuilds the vector index 10 "
        "seconds after the last deferring request (GET .../jobs/{id}).",
    )


class ChunkCount(BaseModel):
    count: int
    embedded: int
    not_embedded: int


class ChunkDeleteResult(BaseModel):
    deleted: int
