"""Load the knowledge base named in the path, within the caller's project."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path

from app.db.dependencies import SessionDep
from app.knowledge_bases import service
from app.models import KnowledgeBase
from app.projects.dependencies import ProjectDep

KnowledgeBaseRef = Annotated[
    str, Path(min_length=1, max_length=64, description="The knowledge base's id or name.")
]


async def get_knowledge_base(
    kb: KnowledgeBaseRef, session: SessionDep, project: ProjectDep
) -> KnowledgeBase:
    return await service.get_or_404(session, project_id=project.id, ref=kb)


KnowledgeBaseDep = Annotated[KnowledgeBase, Depends(get_knowledge_base)]
