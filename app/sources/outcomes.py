"""How a sync run ended, told to the events feed and the audit log."""

from __future__ import annotations

import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from app.events import service as events
from app.models import AuditEvent, SourceRun
from app.sources.view import SourceView


def record_run_end(session: AsyncSession, source: SourceView, run: SourceRun) -> None:
    """A real run ended: the events feed and the audit log say how."""
    failed = run.status == "failed"
    events.source_event(
        session,
        project_id=source.project_id,
        knowledge_base_id=source.knowledge_base_id,
        source_id=source.id,
        type_="source.failed" if failed else "source.synced",
        data={
            "name": source.name,
            "kind": source.kind,
            "run_id": str(run.id),
            "counts": run.counts,
            "error": run.error,
        },
    )
    session.add(
        AuditEvent(
            id=uuid.uuid4(),
            project_id=source.project_id,
            api_key_id=None,
            actor="source-sync",
            operation="sources-sync-run",
            method="JOB",
            path=f"/v1/knowledge-bases/{source.knowledge_base_id}/sources/{source.id}/runs/{run.id}",
            status=500 if failed else 200,
            target={"kb": str(source.knowledge_base_id), "source": str(source.id)},
            hits=None,
        )
    )
