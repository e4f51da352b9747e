from enum import StrEnum


class Fusion(StrEnum):
    RRF = "rrf"
    WEIGHTED = "weighted"

    def __str__(self) -> str:
        return str(self.value)
