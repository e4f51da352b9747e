"""The public contract of embedding texts with a knowledge base's model."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.kit.schemas import RequestModel
from app.kit.strings import StoredText
from app.search.schemas import MAX_QUERY_CHARS

MAX_EMBED_TEXTS = 128
# As long as a search `query` may be: every query search embeds can be embedded here too.
MAX_EMBED_TEXT_CHARS = MAX_QUERY_CHARS

EmbedText = Annotated[StoredText, Field(min_length=1, max_length=MAX_EMBED_TEXT_CHARS)]


class EmbeddingCreate(RequestModel):
    """Texts to turn into vectors with the knowledge base's own embedding model."""

    texts: list[EmbedText] = Field(
        min_length=1,
        max_length=MAX_EMBED_TEXTS,
        description=f"1 to {MAX_EMBED_TEXTS} non-empty texts of at most {MAX_EMBED_TEXT_CHARS:,} "
        "characters each. A text longer than the model's token window is truncated as the "
        "model truncates it when it embeds chunks and queries: the built-in model reads the "
        "first 256 tokens (special tokens included) and ignores the rest; an API model's "
        "server decides (OpenAI refuses texts over 8,191 tokens, answered as a 503).",
    )
    input: Literal["document", "query"] = Field(
        default="document",
        description="`document`: as chunks are embedded at ingestion (`embed_documents`); "
        "`query`: as search embeds a query (`embed_query`), for `vector` searches.",
    )


class EmbeddingRead(BaseModel):
    """One vector per text, in the order of `texts`; the knowledge base's model and dimension."""

    model: str = Field(description="The knowledge base's embedding model.")
    dimensions: int
    vectors: list[list[float]] = Field(
        description="Unit-length vectors as the model returns them (float32 values)."
    )
