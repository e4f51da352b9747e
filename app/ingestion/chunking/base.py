"""Chunking configuration, the chunk draft, and the context every strategy works in.

Range rule: a chunk's `text` is exactly `prefix + source[start_offset:end_offset]`, where
`source` is `ParsedDocument.text`. `prefix` is empty unless `include_headings` prepends the
heading path (hierarchical) or the strategy repeats the CSV header (`csv_rows`); so by default
a chunk is a contiguous slice of the extracted text. Its lineage (`node_path`) runs from the
root to the deepest node whose range contains the whole slice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.ingestion.builder import page_span
from app.ingestion.parsers import ParsedDocument
from app.ingestion.tokens import SpanningCounter, TokenCounter
from app.ingestion.tree import Node, SectionNode, containing_path
from app.kit.strings import StoredText

Strategy = Literal["hierarchical", "sliding_window", "csv_rows", "recursive", "markdown"]
# A chunk holds at most this many characters per token of its budget. The tokenizer folds some
# text into very few tokens (a "word" over 100 characters is one [UNK], so 50,000 letters or
# 3,000 joined emoji counted as one token and made one chunk of that size); English runs at
# 4-5 characters per token, so the bound only cuts such text.
MAX_CHARS_PER_TOKEN = 10


class ChunkingConfig(BaseModel):
    """How a document is cut into chunks; stored per knowledge base."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: Strategy = "hierarchical"
    # None means the embedder's window (256 tokens for all-MiniLM-L6-v2).
    max_tokens: int | None = Field(default=None, ge=16, le=8192)
    overlap_tokens: int = Field(default=32, ge=0)
    window_chars: int = Field(default=2000, ge=50)
    overlap_chars: int = Field(default=200, ge=0)
    # A section with fewer content tokens than this joins the next sibling section.
    min_tokens: int = Field(default=32, ge=0)
    rows_per_chunk: int | None = Field(default=None, ge=1)
    include_headings: bool = False
    # Chunks are embedded under their document's title and section path (not stored in their
    # `text`); false embeds the text alone. app/chunks/embedding.py.
    context_header: bool = True
    # `recursive` and `markdown`: the longest chunk in characters, and the separators tried
    # in order (None: paragraph, line, sentence, word). Their `overlap_chars` defaults to 50.
    max_chars: int = Field(default=512, ge=16, le=100_000)
    separators: list[Annotated[str, Field(min_length=1, max_length=32)]] | None = Field(
        default=None, min_length=1, max_length=16
    )

    # JSON and JSONL: the fields whose values are a record's text (plain paragraphs, in this
    # order); its other fields stay `path: value` lines after them. Read when the document is
    # parsed (a reindex chunks the stored tree again and does not parse). A name matches a
    # field's dotted path and everything under it (`body` takes `body.text` and `body[0]`).
    json_text_fields: (
        list[Annotated[StoredText, Field(min_length=1, max_length=200, pattern=r"\S")]] | None
    ) = Field(default=None, min_length=1, max_length=32)

    @model_validator(mode="after")
    def _consistent(self) -> ChunkingConfig:
        fields = self.json_text_fields or []
        if len(set(fields)) != len(fields):
            raise ValueError("json_text_fields names a field twice")
        if self.max_tokens is not None and self.overlap_tokens >= self.max_tokens:
            raise ValueError("overlap_tokens must be smaller than max_tokens")
        if self.overlap_chars >= self.window_chars:
            raise ValueError("overlap_chars must be smaller than window_chars")
        recursive = self.strategy in ("recursive", "markdown")
        given = "overlap_chars" in self.model_fields_set
        if recursive and given and self.overlap_chars >= self.max_chars:
            raise ValueError("overlap_chars must be smaller than max_chars")
        return self


class ChunkSpan(BaseModel):
    """One of the parts of a chunk that hierarchical chunking merged from several sections:
    its lineage and its `[start, end)` range in the extracted text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    node_path: list[str] = Field(description="Node ids, root to the part's section.")
    section_titles: list[str]
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class ChunkDraft(BaseModel):
    """A chunk ready to embed: its text, where it comes from, and its lineage in the tree."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    chunk_index: int
    text: str
    prefix: str = ""
    start_offset: int
    end_offset: int
    token_count: int
    node_path: list[str]
    depth: int
    leaf_node_id: str
    section_titles: list[str]
    doc_title: str | None
    page_start: int | None
    page_end: int | None
    # Empty unless the chunk holds text of several sections merged together (their common
    # ancestor is all `node_path` can name); then one entry per section, in order.
    spans: list[ChunkSpan] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SpanPart:
    """A merged part of a raw chunk: the nodes from the root to its container, and range."""

    path: tuple[Node, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class RawChunk:
    """A strategy's output before lineage is attached."""

    start: int
    end: int
    prefix: str = ""
    tokens: int | None = None
    parts: tuple[SpanPart, ...] = ()


class ChunkContext:
    """The document, settings and counter a strategy works with; counts are cached."""

    def __init__(
        self,
        parsed: ParsedDocument,
        config: ChunkingConfig,
        counter: TokenCounter,
        *,
        max_tokens: int,
    ) -> None:
        self.parsed = parsed
        self.source = parsed.text
        self.config = config
        self.counter = counter
        self.max_tokens = max_tokens
        self.overhead = counter.count_tokens("")
        self._cache: dict[tuple[int, int], int] = {}
        self._spans = (
            counter.token_spans(self.source) if isinstance(counter, SpanningCounter) else None
        )

    def content_tokens(self, start: int, end: int) -> int:
        """Tokens of `source[start:end]` without the model's special tokens."""
        counted = self._spans.count(start, end) if self._spans is not None else None
        if counted is not None:
            # Two bisections: cheaper than the cache, which held an entry for every word of a
            # sentence cut word by word (millions in a 10 MB line).
            return counted
        key = (start, end)
        if key not in self._cache:
            self._cache[key] = self.counter.count_tokens(self.source[start:end]) - self.overhead
        return self._cache[key]

    def budget_tokens(self, start: int, end: int) -> int:
        """What `source[start:end]` costs against the token budget: its tokens, or one per
        MAX_CHARS_PER_TOKEN characters when that is more."""
        return max(self.content_tokens(start, end), -(-(end - start) // MAX_CHARS_PER_TOKEN))

    def total_tokens(self, prefix: str, start: int, end: int) -> int:
        """Tokens the model sees for `prefix + source[start:end]`."""
        if not prefix:
            return self.content_tokens(start, end) + self.overhead
        return self.counter.count_tokens(prefix + self.source[start:end])

    def draft(self, index: int, raw: RawChunk) -> ChunkDraft:
        """Attach lineage, pages and the token count to a raw chunk."""
        root = self.parsed.root
        path = containing_path(root, raw.start, raw.end)
        page_start, page_end = page_span(self.parsed.page_offsets, raw.start, raw.end)
        tokens = raw.tokens
        if tokens is None:
            tokens = self.total_tokens(raw.prefix, raw.start, raw.end)
        return ChunkDraft(
            chunk_index=index,
            text=raw.prefix + self.source[raw.start : raw.end],
            prefix=raw.prefix,
            start_offset=raw.start,
            end_offset=raw.end,
            token_count=tokens,
            node_path=[node.node_id for node in path],
            depth=len(path) - 1,
            leaf_node_id=path[-1].node_id,
            section_titles=[node.title for node in path if isinstance(node, SectionNode)],
            doc_title=self.parsed.title,
            page_start=page_start,
            page_end=page_end,
            spans=[
                ChunkSpan(
                    node_path=[node.node_id for node in part.path],
                    section_titles=[n.title for n in part.path if isinstance(n, SectionNode)],
                    start=part.start,
                    end=part.end,
                )
                for part in raw.parts
            ],
        )
