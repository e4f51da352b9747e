"""Citation markers: `[n]` kept when source n exists, removed (and reported) otherwise.

Works on a stream: text that may be the start of a marker is held back until it is known, so
a streamed answer never shows a marker the final answer drops."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.answers.schemas import Citation, Source

MARKER = re.compile(r"\[(\s*\d{1,4}(?:\s*[,;]\s*\d{1,4})*\s*)\]")
# An unfinished marker at the end of the text so far: "[", "[1", "[1, 2".
_PARTIAL = re.compile(r"\[[\d\s,;]{0,24}$")


def citation_of(source: Source) -> Citation:
    return Citation(
        n=source.n,
        chunk_id=source.chunk_id,
        doc_id=source.doc_id,
        doc_title=source.doc_title,
        section_titles=source.section_titles,
        page_start=source.page_start,
        page_end=source.page_end,
        start_offset=source.start_offset,
        end_offset=source.end_offset,
        quote=source.text,
    )


class CitationTracker:
    """Feed answer text in pieces; get back clean text and the sources newly cited."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self._sources = {source.n: source for source in sources}
        self._pending = ""
        self.cited: list[Citation] = []
        self._cited_numbers: set[int] = set()
        self.invalid: list[int] = []

    def feed(self, delta: str) -> tuple[str, list[Citation]]:
        """Clean text that is safe to show now, and citations first made in it."""
        text = self._pending + delta
        partial = _PARTIAL.search(text)
        if partial is not None:
            self._pending = text[partial.start() :]
            text = text[: partial.start()]
        else:
            self._pending = ""
        return self._clean(text)

    def finish(self) -> tuple[str, list[Citation]]:
        """Whatever was held back at the end (an unfinished marker is left as text)."""
        text, self._pending = self._pending, ""
        return self._clean(text)

    def _clean(self, text: str) -> tuple[str, list[Citation]]:
        new: list[Citation] = []

        def replace(match: re.Match[str]) -> str:
            numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
            kept = [n for n in numbers if n in self._sources]
            self.invalid.extend(n for n in numbers if n not in self._sources)
            for n in kept:
                if n not in self._cited_numbers:
                    self._cited_numbers.add(n)
                    citation = citation_of(self._sources[n])
                    self.cited.append(citation)
                    new.append(citation)
            return "".join(f"[{n}]" for n in dict.fromkeys(kept))

        cleaned = MARKER.sub(replace, text)
        return cleaned, new

    def warnings(self) -> list[str]:
        if not self.invalid:
            return []
        numbers = ", ".join(f"[{n}]" for n in dict.fromkeys(self.invalid))
        return [f"Removed citation markers to sources that do not exist: {numbers}."]
