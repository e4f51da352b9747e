from enum import StrEnum


class WebhookReadTypesType0Item(StrEnum):
    DOCUMENT_DELETED = "document.deleted"
    DOCUMENT_FAILED = "document.failed"
    DOCUMENT_READY = "document.ready"
    DOCUMENT_UPDATED = "document.updated"
    KNOWLEDGE_BASE_CREATED = "knowledge_base.created"
    KNOWLEDGE_BASE_DELETED = "knowledge_base.deleted"
    KNOWLEDGE_BASE_UPDATED = "knowledge_base.updated"
    SOURCE_FAILED = "source.failed"
    SOURCE_SYNCED = "source.synced"

    def __str__(self) -> str:
        return str(self.value)
