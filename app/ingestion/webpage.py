"""A fetched web resource as an upload's content: HTML reduced to its main content.

A page's navigation, footers and cookie banners would otherwise be chunked and embedded with
every page of a site and crowd its real text out of search. trafilatura finds the main content
and writes it as Markdown with its headings, so the Markdown parser still builds the page's
sections. A page it finds nothing in keeps its whole HTML (the HTML parser takes it). Other
formats (PDF, DOCX, text ...) go to their parsers as fetched.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from posixpath import basename
from urllib.parse import unquote, urlsplit

import trafilatura

from app.kit.fetch import Fetched

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


@dataclass(frozen=True, slots=True)
class PageContent:
    data: bytes
    format: str | None  # None: detected from the bytes, name and content type
    title: str | None
    filename: str | None
    content_type: str | None


def filename_of(url: str) -> str | None:
    """The last path segment of a URL (`guide.pdf`), for format detection and display."""
    name = basename(unquote(urlsplit(url).path))
    return name or None


def _looks_html(fetched: Fetched) -> bool:
    if fetched.media_type in HTML_TYPES:
        return True
    if fetched.media_type not in (None, "application/octet-stream"):
        return False
    head = fetched.content[:1024].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html"))


def _main_content(fetched: Fetched) -> PageContent:
    markdown = trafilatura.extract(
        fetched.content,
        url=fetched.url,
        output_format="markdown",
        include_tables=True,
        include_formatting=True,
        include_comments=False,
        favor_recall=True,
    )
    found = trafilatura.extract_metadata(fetched.content)
    title = found.title if found is not None and found.title else None
    if not markdown or not markdown.strip():
        return PageContent(fetched.content, "html", title, filename_of(fetched.url), "text/html")
    return PageContent(
        markdown.encode("utf-8"), "markdown", title, filename_of(fetched.url), "text/markdown"
    )


async def page_content(fetched: Fetched) -> PageContent:
    """What to ingest of a fetched resource (HTML extraction runs off the event loop)."""
    if _looks_html(fetched):
        return await asyncio.to_thread(_main_content, fetched)
    return PageContent(fetched.content, None, None, filename_of(fetched.url), fetched.media_type)
