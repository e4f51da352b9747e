"""HTML via the standard library: h1-h6 nest into sections, block elements become paragraphs."""

from __future__ import annotations

from html.parser import HTMLParser

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, decode_text, finish

_DROPPED = frozenset(
    {"script", "style", "noscript", "template", "svg", "iframe", "object", "select", "datalist"}
)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "dd", "details",
        "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
        "header", "hr", "html", "li", "main", "nav", "ol", "p", "section", "summary", "table",
        "tbody", "tfoot", "thead", "ul",
    }
)  # fmt: skip
_CELLS = frozenset({"td", "th"})
# decode_text refuses NUL characters, so this marker cannot occur in the page itself.
_BREAK = "\n\x00"
_VOID = frozenset(
    {
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
        "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
    }
)  # fmt: skip
# Elements whose end tag may be left out: a hidden one would never be seen to close, so their
# `hidden` is not honoured (their text is kept) rather than the rest of the page lost.
_OPTIONAL_END = frozenset(
    {
        "body", "caption", "colgroup", "dd", "dt", "head", "html", "li", "optgroup", "option",
        "p", "rb", "rp", "rt", "rtc", "tbody", "td", "tfoot", "th", "thead", "tr",
    }
)  # fmt: skip


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out = TextBuilder()
        self.title: str | None = None
        self._pieces: list[str] = []
        self._dropped: list[str] = []
        self._in_title = False
        self._title_pieces: list[str] = []
        self._heading = 0
        self._pre = 0
        self._list_item = False
        self._cells: list[str] | None = None

    def _inline(self) -> str:
        text = "".join(self._pieces)
        self._pieces = []
        if self._pre:
            return text.replace(_BREAK, "\n")
        # Collapse whitespace as a browser would, but keep the breaks <br> asked for.
        collapsed = (" ".join(line.split()) for line in text.split(_BREAK))
        return "\n".join(line for line in collapsed if line)

    def _flush(self) -> None:
        text = self._inline()
        if self._cells is not None:
            if text.strip():
                self._cells.append(" ".join(text.split()))
            return
        if self._heading:
            self.out.add(text, kind="heading", level=self._heading, title=" ".join(text.split()))
            self._heading = 0
        elif text.strip():
            prefix = "- " if self._list_item else ""
            self.out.add(prefix + text.strip(), split_sentences=not self._pre)
        self._list_item = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        hidden = tag not in _VOID and tag not in _OPTIONAL_END and _hidden(attrs)
        if self._dropped or tag in _DROPPED or hidden:
            if tag not in _VOID:
                self._dropped.append(tag)
            return
        if tag == "title":
            self._in_title = True
        elif tag == "br":
            self._pieces.append(_BREAK)
        elif tag in _HEADINGS:
            self._flush()
            self._heading = _HEADINGS[tag]
        elif tag == "pre":
            self._flush()
            self._pre += 1
        elif tag == "tr":
            self._flush()
            self._cells = []
        elif tag in _CELLS:
            self._flush()
        elif tag in _BLOCKS:
            self._flush()
            self._list_item = tag == "li"

    def handle_endtag(self, tag: str) -> None:
        if self._dropped:
            if tag in self._dropped:
                # Close everything opened inside it too; stray inner tags must not keep
                # the rest of the page dropped.
                del self._dropped[len(self._dropped) - 1 - self._dropped[::-1].index(tag) :]
                return
            if tag not in _BLOCKS and tag not in _CELLS:
                return
            # A block that was open around the dropped element closes: so does the element
            # (`<section><div hidden>x</section>`), and the rest of the page is kept.
            self._dropped.clear()
        if tag == "title":
            self._in_title = False
            self.title = " ".join("".join(self._title_pieces).split()) or None
        elif tag in _HEADINGS or tag in _CELLS or tag in _BLOCKS:
            self._flush()
        elif tag == "pre" and self._pre:
            self._flush()
            self._pre -= 1
        elif tag == "tr" and self._cells is not None:
            self._flush()
            cells, self._cells = self._cells, None
            self.out.add(" | ".join(cells), split_sentences=False)

    def handle_data(self, data: str) -> None:
        if self._dropped:
            return
        (self._title_pieces if self._in_title else self._pieces).append(data)

    def close(self) -> None:
        super().close()
        if self._cells is not None:
            self.handle_endtag("tr")
        self._flush()


def _hidden(attrs: list[tuple[str, str | None]]) -> bool:
    """An element a browser shows nothing of: `hidden`, or an inline `display: none`
    (collapsed menus, consent banners). Not `aria-hidden`, which hides from screen readers
    only, nor `visibility: hidden`, whose children may be visible."""
    for name, value in attrs:
        if name == "hidden":
            return True
        if name == "style" and value and _displays_none(value):
            return True
    return False


def _displays_none(style: str) -> bool:
    for declaration in style.split(";"):
        prop, _, value = declaration.partition(":")
        words = value.lower().replace("!important", " ").split()
        if prop.strip().lower() == "display" and words == ["none"]:
            return True
    return False


class HtmlParser:
    """Parses UTF-8 HTML."""

    format = "html"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Extract headings and block text; scripts, styles and templates are dropped."""
        extractor = _Extractor()
        extractor.feed(decode_text(data, limits))
        extractor.close()
        out = extractor.out
        return finish(
            out.text(),
            out.blocks,
            format=self.format,
            title=title or extractor.title,
            limits=limits,
        )


def extract(markup: str) -> tuple[TextBuilder, str | None]:
    """The blocks and `<title>` of an HTML text, for formats that carry HTML inside them
    (EPUB chapters, e-mail bodies)."""
    extractor = _Extractor()
    extractor.feed(markup.replace("\x00", ""))
    extractor.close()
    return extractor.out, extractor.title
