from enum import StrEnum


class GraphSettingsExtractor(StrEnum):
    LLM = "llm"
    LOCAL = "local"

    def __str__(self) -> str:
        return str(self.value)
