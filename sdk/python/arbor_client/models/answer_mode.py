from enum import StrEnum


class AnswerMode(StrEnum):
    QUICK = "quick"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
