"""One ingestion job's document as it moves through the stages, and the rules they share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.chunks.copy_rows import ChunkRow
from app.chunks.embedding import DocumentEmbedder
from app.documents import stored_tree
from app.documents.chunk_ids import chunk_id
from app.documents.stored_tree import TreeJson
from app.ingestion.chunking import ChunkDraft
from app.ingestion.parsers import ParsedDocument
from app.ingestion.tokens import DEFAULT_EMBEDDER_WINDOW, EstimatingCounter, TokenCounter
from app.models import Document, Job


class JobGone(Exception):
    """The document was deleted (or the job cancelled) while the job ran."""


class RetryLater(Exception):
    def __init__(self, reason: str, *, delay_s: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay_s = delay_s


def token_counter(embedder: DocumentEmbedder | None) -> tuple[TokenCounter, int]:
    """Count with the embedder's own tokenizer where it has one."""
    tokenizer = getattr(embedder, "tokenizer", None)
    window = int(getattr(embedder, "max_tokens", DEFAULT_EMBEDDER_WINDOW))
    if tokenizer is not None and hasattr(tokenizer, "count_tokens"):
        return tokenizer, window
    return EstimatingCounter(), window


def document_title(document: Document, parsed_title: str | None) -> str:
    """The title a document's chunks carry (and are embedded under): the upload's, the file's
    own, or its file name."""
    return document.title or parsed_title or document.filename or ""


def is_transient(exc: BaseException) -> bool:
    return bool(getattr(exc, "transient", False))


@dataclass(eq=False)
class Work:
    """One job of a batch and what its stages made of its document."""

    job: Job
    document: Document
    source: bytes | None
    # A document without a source (a reindex) is parsed from its stored tree: read with it,
    # dropped once parsed.
    stored_tree: dict[str, Any] | None = None
    parsed: ParsedDocument | None = None
    # Once chunked, the tree is held as the deflated JSON the store step writes
    # (`tree_json`), a tenth of the memory of its nodes, and `parsed` is dropped; the store
    # step reads only these of it.
    tree_json: TreeJson | None = None
    parsed_title: str | None = None
    parsed_format: str = ""
    parsed_metadata: dict[str, Any] | None = None
    drafts: list[ChunkDraft] = field(default_factory=list)
    # Per draft, the hash of what the model reads for it (its context header and text): the
    # key under which its vector is reused.
    hashes: list[str] = field(default_factory=list)
    inputs: dict[str, str] = field(default_factory=dict)
    # float32 rows, as the model gives them: a document's vectors are all held until it is
    # stored, and as lists of Python floats they took eight times the memory (a 5 MB text's
    # 4,000 chunks, 50 MB).
    vectors: list[np.ndarray | None] = field(default_factory=list)
    embed_error: str | None = None

    def hold_tree_as_json(self) -> None:
        """Swap the parsed tree for its JSON."""
        parsed = self.parsed
        assert parsed is not None
        self.parsed_title, self.parsed_format = parsed.title, parsed.format
        self.parsed_metadata = parsed.metadata
        self.tree_json = stored_tree.tree_json(parsed)
        self.parsed = None


def chunk_rows(document: Document, title: str, work: Work) -> list[ChunkRow]:
    """The rows the store step writes for a work's chunks."""
    return [
        ChunkRow(
            id=chunk_id(document.id, draft.chunk_index),
            document_id=document.id,
            chunk_index=draft.chunk_index,
            text=draft.text,
            text_sha256=sha,
            node_path=draft.node_path,
            depth=draft.depth,
            leaf_node_id=draft.leaf_node_id,
            section_titles=draft.section_titles,
            doc_title=title,
            page_start=draft.page_start,
            page_end=draft.page_end,
            start_offset=draft.start_offset,
            end_offset=draft.end_offset,
            metadata=document.metadata_,
            own_metadata=False,
            embedding=vector,
            # From the model, or reused from a vector the same model computed.
            embedding_computed=vector is not None,
            spans=[span.model_dump() for span in draft.spans] or None,
        )
        for draft, vector, sha in zip(work.drafts, work.vectors, work.hashes, strict=True)
    ]
