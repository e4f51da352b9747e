from enum import StrEnum


class SourceCreateKind(StrEnum):
    FOLDER = "folder"
    HTTP = "http"
    RECORDS = "records"

    def __str__(self) -> str:
        return str(self.value)
