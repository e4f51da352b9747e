from enum import StrEnum


class NodeKind(StrEnum):
    DOCUMENT = "document"
    PARAGRAPH = "paragraph"
    SECTION = "section"
    SENTENCE = "sentence"
    TOPIC = "topic"

    def __str__(self) -> str:
        return str(self.value)
