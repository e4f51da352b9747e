"""Ingestion: upload bytes -> parsed document and tree -> chunks with lineage. No I/O here."""

from app.ingestion.chunking import ChunkDraft, ChunkingConfig, chunk_document
from app.ingestion.detect import detect_format
from app.ingestion.parse import parse_document
from app.ingestion.parsers import ParsedDocument, ParseLimits, Parser, supported_formats
from app.ingestion.tokens import (
    DEFAULT_EMBEDDER_WINDOW,
    EstimatingCounter,
    TokenCounter,
    TokenizerCounter,
)
from app.ingestion.tree import (
    DocumentNode,
    Node,
    NodeKind,
    NodeRange,
    ParagraphNode,
    SectionNode,
    SentenceNode,
    TopicNode,
    ancestors,
    find_node,
    iter_nodes,
    leaves,
)

__all__ = [
    "DEFAULT_EMBEDDER_WINDOW",
    "ChunkDraft",
    "ChunkingConfig",
    "DocumentNode",
    "EstimatingCounter",
    "Node",
    "NodeKind",
    "NodeRange",
    "ParagraphNode",
    "ParseLimits",
    "ParsedDocument",
    "Parser",
    "SectionNode",
    "SentenceNode",
    "TokenCounter",
    "TokenizerCounter",
    "TopicNode",
    "ancestors",
    "chunk_document",
    "detect_format",
    "find_node",
    "iter_nodes",
    "leaves",
    "parse_document",
    "supported_formats",
]
