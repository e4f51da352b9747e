"""What an extractor reads (chunks) and reports (entities, relations), behind one protocol.

Entities are merged per knowledge base by `entity_key`: the same name written with another
case, spacing, leading article or possessive is the same entity. An extractor reports each
entity with the sentence (or description) that introduced it, and each relation with its fact
text; the graph stage keeps both per chunk, as provenance.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

MAX_NAME = 200
MAX_DESCRIPTION = 1000
MAX_FACT = 1000
MAX_TYPE = 40
MAX_RELATION_TYPE = 64
RELATED_TO = "related_to"

_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)
_POSSESSIVE = re.compile("['\u2019]s$")
_SPACES = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[^\w]+")


def entity_key(name: str) -> str:
    """The normalised name entities merge by: NFKC, case-folded, no leading article, no
    possessive, punctuation as single spaces."""
    text = unicodedata.normalize("NFKC", name).strip()
    text = _ARTICLE.sub("", text)
    text = _POSSESSIVE.sub("", text)
    text = _NOT_WORD.sub(" ", text.casefold())
    return _SPACES.sub(" ", text).strip()[:MAX_NAME]


def relation_type(verb: str | None) -> str:
    """A relation type in lower snake case (`works_at`), `related_to` when there is none."""
    if not verb:
        return RELATED_TO
    text = _NOT_WORD.sub("_", unicodedata.normalize("NFKC", verb).casefold()).strip("_")
    return text[:MAX_RELATION_TYPE] or RELATED_TO


def clip(text: str, limit: int) -> str:
    text = _SPACES.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class ChunkInput:
    chunk_id: uuid.UUID
    text: str


@dataclass(frozen=True)
class ExtractedEntity:
    name: str
    type: str
    description: str
    # The extractor's own merge key (the local one keys nouns by lemma); empty: entity_key(name).
    key: str = ""


@dataclass(frozen=True)
class ExtractedRelation:
    source: str
    target: str
    type: str
    fact: str
    source_key: str = ""
    target_key: str = ""


@dataclass
class ChunkExtraction:
    """What one chunk contributed; `warning` when the extractor could not read it."""

    chunk_id: uuid.UUID
    entities: list[ExtractedEntity] = field(default_factory=list)
    relations: list[ExtractedRelation] = field(default_factory=list)
    warning: str | None = None


@dataclass
class TokenUsage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, other: TokenUsage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens


@dataclass
class ExtractionResult:
    chunks: list[ChunkExtraction]
    usage: TokenUsage = field(default_factory=TokenUsage)

    @property
    def warnings(self) -> list[str]:
        return [f"chunk {c.chunk_id}: {c.warning}" for c in self.chunks if c.warning]


class Extractor(Protocol):
    """Turns chunks into entities and relations; never fails a document for one bad chunk."""

    name: str

    async def extract(self, chunks: Sequence[ChunkInput]) -> ExtractionResult: ...
