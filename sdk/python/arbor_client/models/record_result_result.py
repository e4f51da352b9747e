from enum import StrEnum


class RecordResultResult(StrEnum):
    ABSENT = "absent"
    CREATED = "created"
    DELETED = "deleted"
    UNCHANGED = "unchanged"
    UPDATED = "updated"

    def __str__(self) -> str:
        return str(self.value)
