from enum import StrEnum


class KnowledgeBaseReadSearchModesItem(StrEnum):
    HYBRID = "hybrid"
    TEXT = "text"
    VECTOR = "vector"

    def __str__(self) -> str:
        return str(self.value)
