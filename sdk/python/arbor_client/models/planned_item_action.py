from enum import StrEnum


class PlannedItemAction(StrEnum):
    ADD = "add"
    DELETE = "delete"
    UNCHANGED = "unchanged"
    UPDATE = "update"

    def __str__(self) -> str:
        return str(self.value)
