"""Parsers behind one protocol, looked up by format name."""

from __future__ import annotations

from app.ingestion.parsers.base import ParsedDocument, ParseLimits, Parser
from app.ingestion.parsers.csv import CsvParser
from app.ingestion.parsers.docx import DocxParser
from app.ingestion.parsers.ebooks import EpubParser
from app.ingestion.parsers.html import HtmlParser
from app.ingestion.parsers.images import ImageParser
from app.ingestion.parsers.mail import EmlParser
from app.ingestion.parsers.markdown import MarkdownParser
from app.ingestion.parsers.odt import OdtParser
from app.ingestion.parsers.pdf import PdfParser
from app.ingestion.parsers.records import JsonlParser, JsonParser
from app.ingestion.parsers.rtf import RtfParser
from app.ingestion.parsers.sheets import OdsParser, XlsxParser
from app.ingestion.parsers.slides import PptxParser
from app.ingestion.parsers.text import TextParser
from app.kit.errors import UnsupportedMediaType

__all__ = [
    "ParseLimits",
    "ParsedDocument",
    "Parser",
    "get_parser",
    "register_parser",
    "supported_formats",
]

_REGISTRY: dict[str, Parser] = {}


def register_parser(parser: Parser) -> None:
    """Register (or replace) the parser for `parser.format`."""
    _REGISTRY[parser.format] = parser


def supported_formats() -> tuple[str, ...]:
    """Return the registered format names, sorted."""
    return tuple(sorted(_REGISTRY))


def get_parser(format: str) -> Parser:
    """Return the parser for a format; UnsupportedMediaType when none is registered."""
    try:
        return _REGISTRY[format]
    except KeyError:
        raise UnsupportedMediaType(
            f"unsupported format {format!r}; supported: {', '.join(supported_formats())}"
        ) from None


for _parser in (
    MarkdownParser(),
    TextParser(),
    PdfParser(),
    DocxParser(),
    CsvParser(),
    HtmlParser(),
    XlsxParser(),
    OdsParser(),
    PptxParser(),
    ImageParser(),
    EpubParser(),
    EmlParser(),
    JsonParser(),
    JsonlParser(),
    RtfParser(),
    OdtParser(),
):
    register_parser(_parser)
