from enum import StrEnum


class SourceReadKind(StrEnum):
    FOLDER = "folder"
    HTTP = "http"
    RECORDS = "records"

    def __str__(self) -> str:
        return str(self.value)
