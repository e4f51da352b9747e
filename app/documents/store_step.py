"""The store step of ingestion: a batch's chunks, trees and states written in one transaction.

Only this step writes chunks, in the transaction that sets `status = ready`, so search never
sees half a document; a job that runs twice writes the same chunk ids again.
"""

from __future__ import annotations

import uuid

from sqlalchemy import and_, delete, or_, select

from app.chunks import copy_rows
from app.chunks.copy_rows import ChunkRow
from app.config import Settings
from app.db.engine import Database
from app.documents import enrichment, stored_tree
from app.documents import repository as documents_repository
from app.documents.chunk_ids import with_free_ids
from app.documents.ingest_work import Work, chunk_rows, document_title
from app.documents.versions import take_over_external_ids
from app.events import service as events
from app.graph import stage as graph_stage
from app.graph.settings import wants_stage
from app.jobs import repository as jobs_repository
from app.models import Chunk, Document, DocumentSource, Job, KnowledgeBase


async def store_works(
    database: Database,
    settings: Settings,
    kb: KnowledgeBase,
    works: list[Work],
    unsettled: dict[uuid.UUID, Job],
) -> None:
    """Write the batch's documents in one transaction: chunks, trees, `ready`, events, the
    graph stage's jobs; the jobs settled here leave `unsettled`. A document deleted meanwhile
    is cancelled; of versions racing for one external id, the newest wins."""
    ids = [work.document.id for work in works]
    taking = {
        work.job.payload["external_id"]
        for work in works
        if work.job.payload.get("replaces") and work.job.payload.get("external_id")
    }
    async with database.transaction() as session:
        # Before any row lock: an upload holding these locks may be cancelling one of ours.
        await documents_repository.lock_versions(session, kb.id, external_ids=taking)
        # The versions these replace are locked with the batch's own documents, in one id
        # order: locked after them, a delete of both (a source's record, a filter) that had
        # locked the older one first deadlocked with this step. Who holds these external ids
        # cannot change meanwhile: every writer of one takes the version locks above.
        own = Document.id.in_(ids)
        holders = and_(Document.knowledge_base_id == kb.id, Document.external_id.in_(taking))
        locked = await session.scalars(
            select(Document)
            .where(or_(own, holders) if taking else own)
            .order_by(Document.id)
            .with_for_update()
            # Not its tree (deferred): its enrichment is all the store step reads of the
            # stored tree (below).
            .execution_options(populate_existing=True)
        )
        wanted = set(ids)
        documents = {document.id: document for document in locked if document.id in wanted}
        gone = [work for work in works if work.document.id not in documents]
        works = [work for work in works if work.document.id in documents]
        if gone:
            await jobs_repository.finish(
                session, *(work.job.id for work in gone), status="cancelled"
            )
        superseded, replaced = await take_over_external_ids(session, kb, works, documents)
        works = [work for work in works if work not in superseded]
        await session.execute(
            delete(Chunk).where(
                Chunk.knowledge_base_id == kb.id,
                Chunk.document_id.in_([w.document.id for w in works]),
            )
        )
        rows: list[ChunkRow] = []
        trees: dict[uuid.UUID, stored_tree.TreeJson] = {}
        enriched = await documents_repository.stored_enrichments(
            session, kb.project_id, [work.document.id for work in works]
        )
        for work in works:
            document = documents[work.document.id]
            title = document_title(document, work.parsed_title)
            if work.parsed_metadata:
                # What the file says of itself (an e-mail's headers) under what the
                # uploader said: the upload's keys win on a clash.
                document.metadata_ = {**work.parsed_metadata, **document.metadata_}
            rows += chunk_rows(document, title, work)
            embedded = sum(vector is not None for vector in work.vectors)
            document.title = title
            document.format = work.parsed_format
            assert work.tree_json is not None
            trees[document.id] = enrichment.carried_over_json(
                enriched.get(document.id), work.tree_json
            )
            document.status = "ready"
            document.error = work.embed_error
            document.chunk_count = len(work.drafts)
            document.embedded_count = embedded
            document.progress = {
                "stage": "ready",
                "chunks_total": len(work.drafts),
                "chunks_embedded": embedded,
                "attempts": work.job.attempts,
            }
            replaced_id = replaced.get(document.id)
            events.document_event(
                session,
                document,
                "document.ready",
                replaced=str(replaced_id) if replaced_id else None,
            )
        await stored_tree.write_trees(session, kb.project_id, trees)
        if rows:
            # The documents' chunks were deleted above; an id a client's chunk of another
            # document holds gets a stand-in (app/documents/chunk_ids.py).
            rows = await with_free_ids(session, kb, rows)
            await copy_rows.insert_rows(session, kb, rows)
        # The graph stage (enrichment, extraction) after embedding, where it is wanted.
        if works and wants_stage(kb.enrichment, kb.graph):
            await graph_stage.queue(
                session,
                kb,
                [w.document.id for w in works],
                max_attempts=settings.job_max_attempts,
            )
        await session.execute(
            delete(DocumentSource).where(
                DocumentSource.document_id.in_([w.document.id for w in works])
            )
        )
        if works:
            await jobs_repository.finish(
                session, *(work.job.id for work in works), status="succeeded"
            )
    for work in [*gone, *superseded, *works]:
        unsettled.pop(work.job.id, None)
