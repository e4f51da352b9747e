from enum import StrEnum


class GraphSearchRequestMode(StrEnum):
    QUICK = "quick"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
