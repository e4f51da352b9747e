from enum import StrEnum


class Include(StrEnum):
    CONTEXT = "context"
    EXPLAIN = "explain"
    VECTORS = "vectors"

    def __str__(self) -> str:
        return str(self.value)
