from enum import StrEnum


class SourceRunReadTrigger(StrEnum):
    MANUAL = "manual"
    SCHEDULE = "schedule"

    def __str__(self) -> str:
        return str(self.value)
