from enum import StrEnum


class AnswerResponseGenerator(StrEnum):
    EXTRACTIVE = "extractive"
    LLM = "llm"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
