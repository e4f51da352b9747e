"""All ORM models, imported together so Alembic and the mapper see every table."""

from app.models.api_keys import ApiKey
from app.models.audit import AuditEvent
from app.models.base import Base
from app.models.chunks import Chunk
from app.models.documents import Document
from app.models.events import Event
from app.models.jobs import DocumentSource, Job
from app.models.knowledge_bases import KnowledgeBase, KnowledgeBaseTally
from app.models.operations import Evaluation, SearchQuery
from app.models.projects import DEFAULT_PROJECT_NAME, Project
from app.models.sources import Source, SourceItem, SourceRun
from app.models.text_statistics import TextStatistics
from app.models.webhooks import Webhook

__all__ = [
    "DEFAULT_PROJECT_NAME",
    "ApiKey",
    "AuditEvent",
    "Base",
    "Chunk",
    "Document",
    "DocumentSource",
    "Evaluation",
    "Event",
    "Job",
    "KnowledgeBase",
    "KnowledgeBaseTally",
    "Project",
    "SearchQuery",
    "Source",
    "SourceItem",
    "SourceRun",
    "TextStatistics",
    "Webhook",
]
