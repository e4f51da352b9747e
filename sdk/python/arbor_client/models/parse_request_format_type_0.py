from enum import StrEnum


class ParseRequestFormatType0(StrEnum):
    MARKDOWN = "markdown"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
