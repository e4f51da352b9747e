from enum import StrEnum


class Intent(StrEnum):
    EXPLORATION = "exploration"
    FACTUAL = "factual"
    RELATIONSHIP = "relationship"
    SUMMARY = "summary"

    def __str__(self) -> str:
        return str(self.value)
