"""CSV: a sniffed dialect, the header row, then one paragraph per data row."""

from __future__ import annotations

import csv
import io

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, decode_text, finish
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

CELL_SEPARATOR = " | "
_SNIFF_CHARS = 64 * 1024


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(text[:_SNIFF_CHARS], delimiters=",;\t|")
    except csv.Error:
        return csv.excel  # one column, or too little text to tell


def render_row(cells: list[str]) -> str:
    """Render a row as one line: cells with inner whitespace collapsed, joined by ' | '."""
    return CELL_SEPARATOR.join(" ".join(cell.split()) for cell in cells)


def read_rows(text: str, limits: ParseLimits) -> list[list[str]]:
    """Return the non-empty rows, header first, within the row and field limits."""
    reader = csv.reader(io.StringIO(text), _dialect(text))
    rows: list[list[str]] = []
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if len(rows) > limits.max_csv_rows:
                raise PayloadTooLarge(f"CSV has more than {limits.max_csv_rows} rows")
            if any(len(cell) > limits.max_csv_field_chars for cell in row):
                raise PayloadTooLarge(
                    f"CSV line {reader.line_num} has a field over "
                    f"{limits.max_csv_field_chars} characters"
                )
            rows.append(row)
    except csv.Error as exc:
        raise UnprocessableDocument(f"malformed CSV at line {reader.line_num}: {exc}") from exc
    return rows


class CsvParser:
    """Parses UTF-8 CSV (comma, semicolon, tab or pipe separated)."""

    format = "csv"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Parse rows; the text is the rendered rows joined by newlines, header first."""
        rows = read_rows(decode_text(data, limits), limits)
        if not rows:
            raise UnprocessableDocument("empty document")
        out = TextBuilder()
        for row in rows:
            out.add(render_row(row), split_sentences=False, separator="\n")
        return finish(
            out.text(),
            out.blocks,
            format=self.format,
            title=title,
            limits=limits,
            csv_header=[cell.strip() for cell in rows[0]],
        )
