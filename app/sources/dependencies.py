"""Load the knowledge source named in the path, within the knowledge base of the path."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path

from app.db.dependencies import SessionDep
from app.knowledge_bases.dependencies import KnowledgeBaseDep
from app.models import Source
from app.sources import service

SourceRef = Annotated[
    str, Path(min_length=1, max_length=64, description="The source's id or name.")
]


async def get_source(source: SourceRef, kb: KnowledgeBaseDep, session: SessionDep) -> Source:
    return await service.get_or_404(session, kb, source)


SourceDep = Annotated[Source, Depends(get_source)]
