"""The public contract of parsing: text or a file in, its tree (and maybe its chunks) out."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.chunks.schemas import ChunkLineage
from app.ingestion.chunking.base import ChunkSpan
from app.kit.schemas import RequestModel
from app.kit.strings import JsonObject, StoredText

KNOWLEDGE_BASE_FIELD = (
    "A knowledge base (id or name) of the caller's: also cut the document into the chunks an "
    "upload to it would get, with its chunking settings and its embedder's tokenizer."
)
CHUNKING_FIELD = (
    "Overrides the knowledge base's chunking, as an upload's `chunking` does; needs "
    "`knowledge_base`."
)


class ParseOptions(RequestModel):
    """What a parse takes besides the document: the fields of a JSON body, and the form fields
    of a multipart one (checked by this model too)."""

    title: StoredText | None = Field(default=None, max_length=1000)
    chunking: JsonObject | None = Field(default=None, description=CHUNKING_FIELD)
    knowledge_base: StoredText | None = Field(
        default=None, min_length=1, max_length=64, description=KNOWLEDGE_BASE_FIELD
    )


class ParseRequest(ParseOptions):
    """Text to parse (markdown or plain); files go through multipart."""

    # Not StoredText: a NUL is the upload's 422 `unprocessable-document`, checked with the rest
    # of the document (app/documents/upload.py). A lone surrogate is not JSON to pydantic.
    text: str = Field(min_length=1, description="The document's text.")
    format: Literal["markdown", "text"] | None = Field(
        default=None,
        description="Detected when absent: markdown when the text has an ATX heading or a code "
        "fence, else text (as uploads detect it).",
    )


class ParsedChunk(ChunkLineage):
    """A chunk the document would get, with its lineage; nothing is stored."""

    text: str
    spans: list[ChunkSpan] = Field(
        default_factory=list,
        description="The merged sections of a chunk that holds several; see chunks' `spans`.",
    )
    token_count: int = Field(
        description="Tokens the embedder sees for `text`, special tokens included."
    )


class ParseRead(BaseModel):
    """The parsed document: offsets in `tree` and `chunks` count Unicode code points of `text`."""

    format: str = Field(description="The format parsed: given, or detected as uploads detect it.")
    title: str = Field(
        description="The document title an upload would get: `title`, else one the document "
        "carries (first markdown heading, HTML <title>, PDF or DOCX metadata), else the file "
        "name's stem; empty when there is none."
    )
    text: str = Field(description="The extracted text the offsets refer to.")
    page_count: int | None = Field(default=None, description="PDF, PPTX (slides), images.")
    ocr_pages: list[int] | None = Field(
        default=None, description="The pages (of a PDF or image) whose text was read by OCR."
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict,
        description="What the document says of itself (an e-mail's `from`, `to`, `cc`, `date`, "
        "`subject`, `message_id`): an upload merges it into the document's metadata, under "
        "the upload's own keys.",
    )
    tree: dict[str, Any] = Field(
        description="The tree's root node, exactly as `GET .../documents/{doc}/tree` returns it "
        "in `root` for an upload of the same bytes: nodes with `node_id`, `kind`, `range`, "
        "`text`, `children` (docs/ingestion.md, 'The tree')."
    )
    chunks: list[ParsedChunk] | None = Field(
        default=None,
        description="With `knowledge_base`: the chunks an upload to it would get, in order, as "
        "`GET .../documents/{doc}/chunks` would list them.",
    )
