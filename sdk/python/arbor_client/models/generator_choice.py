from enum import StrEnum


class GeneratorChoice(StrEnum):
    AUTO = "auto"
    EXTRACTIVE = "extractive"
    LLM = "llm"

    def __str__(self) -> str:
        return str(self.value)
