from enum import StrEnum


class EmbeddingCreateInput(StrEnum):
    DOCUMENT = "document"
    QUERY = "query"

    def __str__(self) -> str:
        return str(self.value)
