"""Which document an upload is: an existing one (same bytes), a new version of one (same
external id), or a new document; the newest upload of an external id wins.

Rules, for an upload of some bytes with an access list and maybe an external id `X`:

- Without `X`: a readable document with the same bytes and access list is this upload, unless
  a pending new version is about to replace it (then it would vanish under the client).
- With `X`, when the current holder of `X` has these bytes: the holder is this upload, and a
  pending new version of `X` is cancelled, since this upload came after it.
- With `X`, when the pending new version of `X` has these bytes: that version (a retry).
- With `X`, when nothing holds or is becoming `X`: a document with these bytes and no external
  id of its own or to come takes `X` (sending the same bytes again with an id names them);
  otherwise a new document with `X`.
- Otherwise a new version that replaces the holder when it is ready; a pending version it
  overtakes is cancelled, so that at most one version of `X` is ever on its way.

The caller holds `repository.lock_versions` for the bytes and ids, so the catalogue read at
the start stays true until its transaction commits.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.documents.ingest_work import Work
from app.events import service as events
from app.jobs import repository as jobs_repository
from app.models import Document, KnowledgeBase


@dataclass(frozen=True)
class Decision:
    reuse: Document | None = None  # an existing document is this upload
    attach: bool = False  # ... and takes the upload's external id
    replaces: Document | None = None  # the new document is a new version of this one
    supersedes: Document | None = None  # a pending version this upload cancels


@dataclass
class Catalogue:
    """The documents an upload may be, as this transaction sees them; kept up to date with
    each decision, so that an upload of a batch sees the ones before it."""

    same_bytes: dict[str, list[Document]]  # readable, not failed, oldest first
    holders: dict[str, Document]  # external id -> the readable document holding it
    pending: dict[str, Document] = field(default_factory=dict)  # external id -> newest version
    becoming: dict[uuid.UUID, str] = field(default_factory=dict)  # pending version -> its id

    def add_pending(self, document: Document, external_id: str) -> None:
        self.pending[external_id] = document
        self.becoming[document.id] = external_id

    def decide(
        self, sha: str, external_id: str | None, access: dict[str, object] | None
    ) -> Decision:
        same = [d for d in self.same_bytes.get(sha, []) if d.access == access]
        if external_id is None:
            reuse = next((d for d in same if not self._replaced_soon(d)), None)
            return Decision(reuse=reuse)
        holder = self.holders.get(external_id)
        pending = self.pending.get(external_id)
        if holder is not None and any(d is holder for d in same):
            return Decision(reuse=holder, supersedes=pending)
        if pending is not None and any(d is pending for d in same):
            return Decision(reuse=pending)
        if holder is None and pending is None:
            unnamed = (d for d in same if d.external_id is None and d.id not in self.becoming)
            reuse = next(unnamed, None)
            return Decision(reuse=reuse, attach=reuse is not None)
        return Decision(replaces=holder, supersedes=pending)

    def record(
        self, decision: Decision, document: Document, sha: str, external_id: str | None
    ) -> None:
        """Note what the upload decided: `document` is the reused or the new document."""
        if decision.supersedes is not None:
            self._forget(decision.supersedes)
        if decision.reuse is not None:
            if decision.attach and external_id is not None:
                self.holders[external_id] = document
            return
        self.same_bytes.setdefault(sha, []).append(document)
        if external_id is None:
            return
        if decision.replaces is not None:
            self.add_pending(document, external_id)
        else:
            self.holders[external_id] = document

    def _replaced_soon(self, document: Document) -> bool:
        return document.external_id is not None and document.external_id in self.pending

    def _forget(self, document: Document) -> None:
        external_id = self.becoming.pop(document.id, None)
        if external_id is not None and self.pending.get(external_id) is document:
            del self.pending[external_id]
        for documents in self.same_bytes.values():
            if document in documents:
                documents.remove(document)


async def take_over_external_ids(
    session: AsyncSession,
    kb: KnowledgeBase,
    works: list[Work],
    documents: dict[uuid.UUID, Document],
) -> tuple[list[Work], dict[uuid.UUID, uuid.UUID]]:
    """New versions take their external id over from the version holding it, and the
    newest upload wins whatever order they finish in: the older version is deleted, be it
    the stored one or this one. Returns the works a newer version superseded (their
    documents are deleted and their jobs cancelled) and, per new version, the one it
    replaced."""
    versions: dict[str, list[Work]] = {}
    for work in works:
        external_id = work.job.payload.get("external_id")
        if work.job.payload.get("replaces") and external_id:
            versions.setdefault(external_id, []).append(work)
    superseded: list[Work] = []
    replaced: dict[uuid.UUID, uuid.UUID] = {}
    for external_id, group in versions.items():
        group.sort(key=lambda work: documents[work.document.id].created_at)
        newest = documents[group[-1].document.id]
        superseded += group[:-1]
        holder = await session.scalar(
            select(Document)
            .where(Document.knowledge_base_id == kb.id, Document.external_id == external_id)
            .with_for_update()
        )
        if holder is not None and holder.created_at > newest.created_at:
            superseded.append(group[-1])
            continue
        if holder is not None:
            events.document_event(
                session,
                holder,
                "document.deleted",
                reason="replaced",
                replaced_by=str(newest.id),
            )
            replaced[newest.id] = holder.id
            await session.execute(delete(Document).where(Document.id == holder.id))
        newest.external_id = external_id
    for work in superseded:
        events.document_event(
            session, documents[work.document.id], "document.deleted", reason="superseded"
        )
    if superseded:
        await session.execute(
            delete(Document).where(Document.id.in_([w.document.id for w in superseded]))
        )
        await jobs_repository.finish(
            session,
            *(work.job.id for work in superseded),
            status="cancelled",
            error="superseded by a newer upload with the same external_id",
        )
    return superseded, replaced
