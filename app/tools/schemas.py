"""The tools agents call (MCP and function calling): their arguments and their results.

One pydantic model per tool validates a call and is, as JSON Schema, the tool's parameters in
both `GET /v1/tools` and the MCP server's tool list.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.kit.schemas import RequestModel
from app.kit.strings import StoredText
from app.search.schemas import MAX_KNOWLEDGE_BASES, MAX_QUERY_CHARS

# Agents rarely need more; a larger top_k fills a model's context with low-ranked passages.
MAX_TOOL_TOP_K = 50


class SearchKnowledgeArgs(RequestModel):
    """Search knowledge bases (hybrid, vector or full text); every hit carries its citation."""

    query: StoredText = Field(
        min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for, in words."
    )
    knowledge_bases: list[StoredText] = Field(
        min_length=1,
        max_length=MAX_KNOWLEDGE_BASES,
        description="Knowledge base names or ids (list_knowledge_bases names them); searched "
        "together, they must share one embedding model.",
    )
    top_k: int = Field(default=5, ge=1, le=MAX_TOOL_TOP_K, description="Passages to return.")
    filter: dict[str, Any] | None = Field(
        default=None,
        description='Mongo-like filter on document and chunk fields, e.g. {"metadata.year": '
        '{"$gte": 2020}}.',
    )
    mode: Literal["hybrid", "vector", "text"] = Field(
        default="hybrid", description="hybrid (default), vector or text (keywords)."
    )


class AnswerArgs(RequestModel):
    """Answer a question from knowledge bases, with numbered citations of the passages used."""

    question: StoredText = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    knowledge_bases: list[StoredText] = Field(
        min_length=1,
        max_length=MAX_KNOWLEDGE_BASES,
        description="Knowledge base names or ids; several must share one embedding model.",
    )
    top_k: int = Field(default=8, ge=1, le=50, description="Passages retrieved for the answer.")
    filter: dict[str, Any] | None = Field(
        default=None, description="The search filter language, as for search_knowledge."
    )


class ListKnowledgeBasesArgs(RequestModel):
    """List the knowledge bases this key may search."""

    limit: int = Field(default=50, ge=1, le=200, description="At most this many.")
    cursor: str | None = Field(
        default=None, max_length=512, description="`next_cursor` of the previous call."
    )


class GetDocumentArgs(RequestModel):
    """One document: title, metadata, status, and (include_text) its text chunk by chunk."""

    knowledge_base: StoredText = Field(min_length=1, description="Knowledge base name or id.")
    document: StoredText = Field(min_length=1, description="Document id or external id.")
    include_text: bool = Field(
        default=True, description="Also return the document's chunks, in order (up to 200)."
    )


class GetChunkContextArgs(RequestModel):
    """The tree around chunks found by search: ancestors, enclosing section, neighbours."""

    knowledge_base: StoredText = Field(min_length=1, description="Knowledge base name or id.")
    chunk_ids: list[uuid.UUID] = Field(
        min_length=1, max_length=200, description="chunk_id values from search results."
    )


class Citation(BaseModel):
    """Where a passage comes from, to cite it: `[n]` in the tool's text."""

    n: int
    chunk_id: uuid.UUID
    doc_id: uuid.UUID
    knowledge_base_id: uuid.UUID
    document_title: str
    section_path: list[str] = Field(description="Section titles from the root down.")
    page_start: int | None = None
    page_end: int | None = None
    score: float


class FunctionDefinition(BaseModel):
    name: str
    description: str
    parameters: dict[str, Any] = Field(description="JSON Schema of the arguments.")


class ToolDefinition(BaseModel):
    """A tool in OpenAI's function-calling format."""

    type: Literal["function"] = "function"
    function: FunctionDefinition


class ToolList(BaseModel):
    tools: list[ToolDefinition]


class ToolCallResult(BaseModel):
    """What a tool returned: `result` as data, `text` ready for a model's tool message."""

    tool: str
    result: dict[str, Any] = Field(
        description="The REST answer the tool is built on (search: its body, plus `citations`)."
    )
    text: str = Field(description="The result as text for a language model, citations as [n].")
