"""Whole documents as one JSON object, out and in.

The reference library's `Document.toJSON` / `Document.fromJSON`, and its `upsertDocument` of a
document parsed (and maybe chunked and embedded) elsewhere: an export is a valid import, so a
document moves between knowledge bases, projects or servers in two requests, and a client
with its own parser or chunker hands Arbor the result instead of the bytes.
"""

from __future__ import annotations

import uuid
from itertools import pairwise

from pydantic import Field, field_validator
from sqlalchemy import ColumnElement, or_, true
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.acl import DocumentAccess
from app.chunks import repository as chunks_repository
from app.chunks import service as chunks
from app.chunks.embedding import DocumentEmbedder
from app.chunks.schemas import MAX_BULK_CHUNKS, ChunkBulkItem, ChunkBulkResult, ChunkContent
from app.config import Settings
from app.documents import repository
from app.documents.schemas import external_id_not_blank, optional_title
from app.events import service as events
from app.ingestion.chunking.base import ChunkSpan
from app.ingestion.parsers import supported_formats
from app.ingestion.parsers.base import ParsedDocument
from app.ingestion.stored import stored_document
from app.ingestion.tree import MAX_NODE_ID, invariant_problems, iter_nodes
from app.jobs import repository as jobs_repository
from app.kit.errors import Conflict, ValidationFailed
from app.kit.schemas import RequestModel
from app.kit.strings import Metadata, StoredText, check_text
from app.kit.vectors import vector_base64
from app.models import Chunk, Document, KnowledgeBase

# A merged chunk's sections; hierarchical chunking merges only sections under `min_tokens`,
# so a chunk of at most 8,192 tokens has far fewer.
MAX_SPANS = 4096


class TransferredChunk(ChunkContent):
    chunk_id: uuid.UUID | None = Field(
        default=None,
        description="Kept on import only with `keep_chunk_ids=true` (ids are unique within a "
        "knowledge base: one in use in this one is then a 409 `chunk-id-in-use`).",
    )
    spans: list[ChunkSpan] = Field(
        default_factory=list,
        max_length=MAX_SPANS,
        description="The sections a merged chunk covers, as chunk reads give them; with a "
        "`tree`, every node they name must be in it.",
    )

    @field_validator("spans")
    @classmethod
    def _storable_spans(cls, spans: list[ChunkSpan]) -> list[ChunkSpan]:
        for span in spans:
            for text in [*span.node_path, *span.section_titles]:
                check_text(text)
            if span.end < span.start:
                raise ValueError(f"a span ends ({span.end}) before it starts ({span.start})")
        return spans


class DocumentTransfer(RequestModel):
    """A document whole: what `GET .../export` answers and `POST .../import` takes."""

    title: StoredText | None = Field(default=None, max_length=1000)
    external_id: StoredText | None = Field(default=None, min_length=1, max_length=256)
    source_uri: StoredText | None = Field(default=None, max_length=4000)
    filename: StoredText | None = Field(default=None, max_length=1000)
    metadata: Metadata = Field(default_factory=dict)
    access: DocumentAccess | None = None
    _title = field_validator("title")(optional_title)
    _external_id = field_validator("external_id")(external_id_not_blank)
    embedding_model: StoredText | None = Field(
        default=None,
        max_length=300,
        description="The model (and variant) the chunks' vectors come from, as an export says: "
        "an import with vectors into a knowledge base of another model is a 422.",
    )
    tree: ParsedDocument | None = Field(
        default=None,
        description="The extracted `text` and the tree over it (`root`), as parsing makes them; "
        "every node's text must be `text[start_offset:end_offset]` (docs/ingestion.md).",
    )
    chunks: list[TransferredChunk] | None = Field(
        default=None,
        max_length=MAX_BULK_CHUNKS,
        description="The chunks, with or without vectors (those without are embedded). "
        "Absent on import: Arbor chunks the tree with the knowledge base's settings.",
    )


def model_label(kb: KnowledgeBase) -> str:
    return f"{kb.embedding_provider}:{kb.embedding_model}:{kb.embedding_variant or '-'}"


async def export(
    session: AsyncSession, kb: KnowledgeBase, document: Document, *, vectors: bool
) -> DocumentTransfer:
    if document.status != "ready":
        raise Conflict(f"Document {document.id} is {document.status}: only ready ones export.")
    rows, total = await chunks_repository.list_page(
        session,
        kb,
        document_id=document.id,
        embedded=None,
        after=None,
        limit=MAX_BULK_CHUNKS,
    )
    if total > MAX_BULK_CHUNKS:
        raise Conflict(f"Document {document.id} has more than {MAX_BULK_CHUNKS} chunks.")
    return DocumentTransfer(
        title=document.title or None,
        external_id=document.external_id,
        source_uri=document.source_uri,
        filename=document.filename,
        metadata=document.metadata_,
        access=DocumentAccess.model_validate(document.access) if document.access else None,
        embedding_model=model_label(kb) if vectors else None,
        tree=stored_document(document.tree) if document.tree else None,
        chunks=[_exported(chunk, vectors=vectors) for chunk in rows],
    )


def _exported(chunk: Chunk, *, vectors: bool) -> TransferredChunk:
    return TransferredChunk(
        chunk_id=chunk.id,
        text=chunk.text,
        **chunks.lineage_of(chunk),
        # Ingested chunks hold a copy of the document's metadata: the document carries it.
        metadata=chunk.metadata_ if chunk.own_metadata else {},
        spans=[ChunkSpan.model_validate(span) for span in chunk.spans or []],
        # base64 float32: a quarter of the JSON numbers' size, and what import parses fastest.
        vector=vector_base64(chunk.embedding) if vectors and chunk.embedding is not None else None,
    )


def _check(kb: KnowledgeBase, body: DocumentTransfer) -> None:
    """Everything about an import that can be refused before anything is written."""
    if body.tree is None and not body.chunks:
        raise ValidationFailed("An import needs a `tree`, `chunks`, or both.")
    with_vectors = any(chunk.vector is not None for chunk in body.chunks or [])
    if with_vectors and body.embedding_model not in (None, model_label(kb)):
        raise ValidationFailed(
            f"The vectors come from {body.embedding_model!r}, the knowledge base embeds with "
            f"{model_label(kb)!r}: leave the vectors out to embed the chunks again."
        )
    _check_chunk_indexes(body.chunks or [])
    if body.tree is None:
        return
    _check_text_and_pages(body.tree)
    problems = invariant_problems(body.tree.root, body.tree.text)
    if problems:
        raise ValidationFailed("The tree does not fit its text: " + "; ".join(problems))
    nodes = {node.node_id for node in iter_nodes(body.tree.root)}
    length = len(body.tree.text)
    for position, chunk in enumerate(body.chunks or []):
        named = [*chunk.node_path, chunk.leaf_node_id]
        named += [node for span in chunk.spans for node in span.node_path]
        unknown = [n for n in named if n and n not in nodes]
        if unknown:
            raise ValidationFailed(
                f"chunks[{position}] names node {unknown[0]!r}, not in the tree."
            )
        start, end = chunk.start_offset, chunk.end_offset
        if (start is not None and start > length) or (end is not None and end > length):
            raise ValidationFailed(f"chunks[{position}]'s range runs past the text ({length}).")
        if any(span.end > length for span in chunk.spans):
            raise ValidationFailed(f"chunks[{position}]'s spans run past the text ({length}).")


def _check_chunk_indexes(chunks: list[TransferredChunk]) -> None:
    """Each chunk its own place in the document: neighbours in context are found by index."""
    seen: dict[int, int] = {}
    for position, chunk in enumerate(chunks):
        index = _index_of(chunk, position)
        if index in seen:
            raise ValidationFailed(
                f"chunks[{position}] has chunk_index {index}, as chunks[{seen[index]}] has: "
                "each chunk needs its own (or leave them all out to number them in order)."
            )
        seen[index] = position


def _index_of(chunk: TransferredChunk, position: int) -> int:
    return chunk.chunk_index if "chunk_index" in chunk.model_fields_set else position


def _check_text_and_pages(tree: ParsedDocument) -> None:
    """What parsing guarantees of its output and a tree made elsewhere may lack."""
    if not tree.text.strip():
        raise ValidationFailed("The tree's text is empty: there is nothing to search.")
    if tree.format not in supported_formats():
        raise ValidationFailed(
            f"Unknown format {tree.format!r}; one of {', '.join(supported_formats())}."
        )
    long_ids = [n.node_id for n in iter_nodes(tree.root) if len(n.node_id) > MAX_NODE_ID]
    if long_ids:
        raise ValidationFailed(f"Node ids are at most {MAX_NODE_ID} characters.")
    if tree.page_count is not None and tree.page_count < 1:
        raise ValidationFailed("`page_count` counts pages: at least 1.")
    offsets = tree.page_offsets
    if offsets is not None and (
        len(offsets) != tree.page_count
        or offsets[:1] != [0]
        or any(b < a for a, b in pairwise(offsets))
        or offsets[-1] > len(tree.text)
    ):
        raise ValidationFailed(
            "`page_offsets` must give one offset per page (`page_count`), the first 0, in "
            "order, within the text."
        )


async def _external_id_free(
    session: AsyncSession, kb: KnowledgeBase, external_id: str, visible: ColumnElement[bool]
) -> None:
    await repository.lock_versions(session, kb.id, external_ids={external_id})
    # Whoever can read it: the id is unique in the knowledge base either way.
    held = await repository.by_external_ids(session, kb, {external_id}, visible=true())
    pending = await repository.pending_versions(
        session, kb, external_ids={external_id}, document_ids=set(), visible=true()
    )
    if not held and not pending:
        return
    readable = await repository.by_external_ids(session, kb, {external_id}, visible=visible)
    if held and not readable:
        raise Conflict(
            f"External id {external_id!r} is in use in this knowledge base by a document you "
            "cannot read: import with another external id, or without one."
        )
    raise Conflict(
        f"External id {external_id!r} is in use in this knowledge base: delete that "
        "document first, or import without it."
    )


async def import_document(
    session: AsyncSession,
    kb: KnowledgeBase,
    body: DocumentTransfer,
    *,
    settings: Settings,
    embedder: DocumentEmbedder | None,
    keep_chunk_ids: bool,
    visible: ColumnElement[bool],
) -> tuple[Document, ChunkBulkResult | None]:
    """Store a document from its JSON, all or nothing. With chunks it is ready at once (the
    chunks' missing vectors embedded here, as the chunk API does); with a tree alone it is
    queued, and the pipeline chunks and embeds the tree as it would a reindex. Chunk ids are
    new unless `keep_chunk_ids` (ids are unique within a knowledge base: an export imported
    back into its own knowledge base would collide with its originals)."""
    _check(kb, body)
    if body.external_id is not None:
        await _external_id_free(session, kb, body.external_id, visible)
    tree = body.tree
    title = body.title or (tree.title if tree else None) or body.filename or ""
    document = Document(
        id=uuid.uuid4(),
        project_id=kb.project_id,
        knowledge_base_id=kb.id,
        title=title,
        external_id=body.external_id,
        source_uri=body.source_uri,
        filename=body.filename,
        format=tree.format if tree else "chunks",
        size_bytes=len(tree.text.encode()) if tree else 0,
        metadata_=body.metadata,
        tree=tree.model_dump(mode="json") if tree else None,
        status="ready" if body.chunks else "queued",
        progress={"stage": "ready" if body.chunks else "queued"},
    )
    if body.access is not None:
        document.access = body.access.model_dump(mode="json")
    session.add(document)
    await session.flush()
    if not body.chunks:
        session.add(
            jobs_repository.new_job(
                project_id=kb.project_id,
                knowledge_base_id=kb.id,
                document_id=document.id,
                kind="ingest",
                payload={"format": document.format, "title": body.title},
                max_attempts=settings.job_max_attempts,
            )
        )
        await session.flush()
        return document, None
    items = [
        # Validated already, as TransferredChunk: constructed, not validated again.
        ChunkBulkItem.model_construct(
            **{
                **{name: value for name, value in dict(chunk).items() if name != "spans"},
                "chunk_id": chunk.chunk_id if keep_chunk_ids else None,
                "chunk_index": _index_of(chunk, position),
                "doc_title": chunk.doc_title or title,
            },
            doc_id=str(document.id),
        )
        for position, chunk in enumerate(body.chunks)
    ]
    written = await chunks.upsert_many(
        session,
        kb,
        items,
        embedder,
        # The new document is the caller's to write, whatever access list it was given.
        visible=or_(visible, Document.__table__.c.id == document.id),
        create_only=True,
        spans=[[span.model_dump() for span in chunk.spans] for chunk in body.chunks],
    )
    if body.metadata:
        # As ingestion does: chunks without metadata of their own carry the document's.
        await chunks_repository.copy_document_fields(session, document, metadata=body.metadata)
    await session.refresh(document)
    events.document_event(session, document, "document.ready", replaced=None)
    return document, written
