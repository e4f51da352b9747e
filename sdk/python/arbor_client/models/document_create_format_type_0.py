from enum import StrEnum


class DocumentCreateFormatType0(StrEnum):
    MARKDOWN = "markdown"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
