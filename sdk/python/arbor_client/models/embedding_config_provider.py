from enum import StrEnum


class EmbeddingConfigProvider(StrEnum):
    LOCAL = "local"
    NONE = "none"
    OPENAI = "openai"

    def __str__(self) -> str:
        return str(self.value)
