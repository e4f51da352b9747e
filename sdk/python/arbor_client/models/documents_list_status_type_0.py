from enum import StrEnum


class DocumentsListStatusType0(StrEnum):
    CHUNKING = "chunking"
    EMBEDDING = "embedding"
    FAILED = "failed"
    PARSING = "parsing"
    QUEUED = "queued"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
