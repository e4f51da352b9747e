from enum import StrEnum


class TextMatch(StrEnum):
    ANY = "any"
    WEBSEARCH = "websearch"

    def __str__(self) -> str:
        return str(self.value)
