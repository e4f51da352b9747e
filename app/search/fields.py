"""The search filter's fields: the columns a filter may name, on chunks or on their documents."""

from __future__ import annotations

from app.kit.filters import Field, FieldKind, FieldMap
from app.models import Chunk, Document

chunks = Chunk.__table__
documents = Document.__table__


SEARCH_FIELDS = FieldMap(
    fields={
        "chunk_id": Field(FieldKind.UUID, chunks.c.id),
        "doc_id": Field(FieldKind.UUID, chunks.c.document_id),
        "doc_title": Field(FieldKind.TEXT, documents.c.title),
        "external_id": Field(FieldKind.TEXT, documents.c.external_id, nullable=True),
        "source_uri": Field(FieldKind.TEXT, documents.c.source_uri, nullable=True),
        "source_id": Field(FieldKind.UUID, documents.c.source_id, nullable=True),
        "source_record_id": Field(FieldKind.TEXT, documents.c.source_record_id, nullable=True),
        "filename": Field(FieldKind.TEXT, documents.c.filename, nullable=True),
        "format": Field(FieldKind.TEXT, documents.c.format, nullable=True),
        "created_at": Field(FieldKind.DATETIME, documents.c.created_at),
        "updated_at": Field(FieldKind.DATETIME, documents.c.updated_at),
        "chunk_index": Field(FieldKind.INTEGER, chunks.c.chunk_index),
        "depth": Field(FieldKind.INTEGER, chunks.c.depth),
        "page": Field(
            FieldKind.PAGE_RANGE, chunks.c.page_start, nullable=True, end=chunks.c.page_end
        ),
        "section_titles": Field(FieldKind.TEXT_LIST, chunks.c.section_titles),
        "node_path": Field(FieldKind.TEXT_LIST, chunks.c.node_path),
    },
    metadata=(chunks.c.metadata, documents.c.metadata),
)


# The filter fields that belong to a chunk's document: a filter that names only these (and the
# caller's document visibility) chooses documents before chunks (`prefilter_documents`).
DOCUMENT_FIELDS = FieldMap(
    fields={
        "doc_id": Field(FieldKind.UUID, documents.c.id),
        **{
            name: spec
            for name, spec in SEARCH_FIELDS.fields.items()
            if getattr(spec.column, "table", None) is documents
        },
    }
)
# The same, with metadata keys read from the document: right where no chunk of the searched
# knowledge bases has metadata of its own (`own_chunk_metadata`), as ingested chunks do not.
DOCUMENT_FIELDS_AND_METADATA = FieldMap(
    fields=DOCUMENT_FIELDS.fields, metadata=(documents.c.metadata,)
)
