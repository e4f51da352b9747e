from enum import StrEnum


class AnalysisSource(StrEnum):
    LEXICAL = "lexical"
    LLM = "llm"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return str(self.value)
