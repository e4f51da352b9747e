from enum import StrEnum


class ActionStage(StrEnum):
    ANALYSIS = "analysis"
    CONTEXT = "context"
    GENERATION = "generation"
    RETRIEVAL = "retrieval"

    def __str__(self) -> str:
        return str(self.value)
