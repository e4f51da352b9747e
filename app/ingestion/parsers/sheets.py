"""Spreadsheets (XLSX, XLSM via openpyxl read-only; ODS via odfpy): one section per sheet.

Each sheet with any value becomes a level-1 section titled by its name: its first non-empty
row (the header) and then one paragraph per data row, rendered as CSV rows are (`a | b`), so
`csv_rows` chunking repeats each sheet's header over its rows. Formulas give their cached
values; a merged range repeats its value in every cell it covers; empty rows and columns
are dropped. Cells are counted as they are read, so a sheet claiming a million rows fails on
the limit rather than filling memory.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from typing import Any

from defusedxml.ElementTree import iterparse

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.archive import inspect_archive
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, finish
from app.ingestion.parsers.csv import render_row
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

SHEET_FORMATS = frozenset({"xlsx", "ods"})
_MAIN_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REF = re.compile(r"([A-Z]+)([0-9]+)")


class _Budget:
    """Cells read so far across the workbook, against the limit."""

    def __init__(self, limits: ParseLimits) -> None:
        self.limits = limits
        self.cells = 0

    def take(self, count: int) -> None:
        self.cells += count
        if self.cells > self.limits.max_sheet_cells:
            raise PayloadTooLarge(f"spreadsheet has more than {self.limits.max_sheet_cells} cells")


def cell_text(value: Any) -> str:
    """A cell's value as text: whole floats without `.0`, dates in ISO form."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() == dt.time(0):
        return value.date().isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return " ".join(str(value).split())


def add_sheet(out: TextBuilder, name: str, rows: Iterable[list[str]]) -> bool:
    """Add a sheet's section: its non-empty rows without the columns empty in all of them.
    Returns False (adding nothing) for a sheet without a value."""
    kept = [row for row in rows if any(row)]
    if not kept:
        return False
    width = max(len(row) for row in kept)
    used = [c for c in range(width) if any(c < len(row) and row[c] for row in kept)]
    out.add(name.strip() or "Sheet", kind="heading", level=1, title=name.strip() or "Sheet")
    for index, row in enumerate(kept):
        cells = [row[c] if c < len(row) else "" for c in used]
        out.add(render_row(cells), split_sentences=False, separator="\n\n" if index == 0 else "\n")
    return True


def _column(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number - 1


def _xlsx_merges(data: bytes, part: str) -> list[tuple[int, int, int, int]]:
    """The merged ranges of one worksheet part as 0-based (row1, col1, row2, col2)."""
    merges: list[tuple[int, int, int, int]] = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive, archive.open(part.lstrip("/")) as stream:
        for _, element in iterparse(stream, events=("end",)):
            if element.tag == f"{_MAIN_NS}mergeCell":
                first, _, last = (element.get("ref") or "").partition(":")
                a, b = _REF.fullmatch(first), _REF.fullmatch(last)
                if a and b:
                    merges.append((int(a[2]) - 1, _column(a[1]), int(b[2]) - 1, _column(b[1])))
            element.clear()
    return merges


def _fill_merges(rows: list[list[str]], merges: list[tuple[int, int, int, int]]) -> None:
    for r1, c1, r2, c2 in merges:
        if r1 >= len(rows) or c1 >= len(rows[r1]) or (r2 - r1 + 1) * (c2 - c1 + 1) > 10_000:
            continue
        value = rows[r1][c1]
        for r in range(r1, min(r2, len(rows) - 1) + 1):
            row = rows[r]
            row.extend([""] * (c2 + 1 - len(row)))
            for c in range(c1, c2 + 1):
                row[c] = value


def _xlsx_rows(sheet: Any, budget: _Budget) -> list[list[str]]:
    rows: list[list[str]] = []
    # The stored <dimension> may be stale or false; read every row there is, within limits.
    sheet.reset_dimensions()
    for values in sheet.iter_rows(values_only=True):
        cells = [cell_text(value) for value in values]
        while cells and not cells[-1]:
            cells.pop()
        if len(cells) > budget.limits.max_sheet_columns:
            raise PayloadTooLarge(
                f"sheet {sheet.title!r} has more than {budget.limits.max_sheet_columns} columns"
            )
        budget.take(max(len(cells), 1))
        rows.append(cells)
    return rows


class XlsxParser:
    """Parses Excel 2007+ workbooks (XLSX, XLSM; macros are never run nor read)."""

    format = "xlsx"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Inspect the zip, then read each worksheet's cached values row by row."""
        import openpyxl  # deferred: only spreadsheet uploads pay for the import

        inspect_archive(data, limits, what="XLSX", required="xl/workbook.xml")
        out = TextBuilder()
        budget = _Budget(limits)
        try:
            book = openpyxl.load_workbook(
                io.BytesIO(data), read_only=True, data_only=True, keep_links=False
            )
            try:
                for sheet in book.worksheets:
                    if not hasattr(sheet, "iter_rows"):
                        continue  # a chart sheet
                    rows = _xlsx_rows(sheet, budget)
                    part = getattr(sheet, "_worksheet_path", None)
                    if isinstance(part, str):
                        _fill_merges(rows, _xlsx_merges(data, part))
                    add_sheet(out, sheet.title, rows)
                found_title = book.properties.title
            finally:
                book.close()
        except PayloadTooLarge:
            raise
        # openpyxl and its XML readers raise many types on malformed parts.
        except Exception as exc:
            raise UnprocessableDocument(f"corrupt XLSX: {exc}") from exc
        if not out.blocks:
            raise UnprocessableDocument("empty document: no sheet has a value")
        return finish(
            out.text(),
            out.blocks,
            format=self.format,
            title=title or ((found_title or "").strip() or None),
            limits=limits,
        )


def _ods_cell(cell: Any) -> str:
    from odf.namespaces import OFFICENS

    value_type = cell.attributes.get((OFFICENS, "value-type"))
    if value_type in ("float", "percentage", "currency"):
        raw = cell.attributes.get((OFFICENS, "value"))
        if raw is not None:
            try:
                return cell_text(float(raw))
            except ValueError:
                pass
    if value_type == "boolean":
        return "TRUE" if cell.attributes.get((OFFICENS, "boolean-value")) == "true" else "FALSE"
    return " ".join(str(cell).split())


def _ods_rows(table: Any, budget: _Budget) -> Iterator[list[str]]:
    from odf.namespaces import TABLENS

    spans: dict[tuple[int, int], str] = {}  # cells a vertical merge covers
    row_index = 0
    for row in table.getElementsByType(_odf_table().TableRow):
        repeat = int(row.attributes.get((TABLENS, "number-rows-repeated"), "1") or 1)
        cells: list[str] = []
        for cell in row.childNodes:
            if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                continue
            times = int(cell.attributes.get((TABLENS, "number-columns-repeated"), "1") or 1)
            text = spans.get((row_index, len(cells)), "")
            if cell.qname[1] == "table-cell":
                text = _ods_cell(cell)
                across = int(cell.attributes.get((TABLENS, "number-columns-spanned"), "1") or 1)
                down = int(cell.attributes.get((TABLENS, "number-rows-spanned"), "1") or 1)
                if text and across * down > 1 and across * down <= 10_000:
                    for r in range(row_index, row_index + down):
                        for c in range(len(cells), len(cells) + across):
                            spans[(r, c)] = text
            if not text:
                # Trailing blank cells are often repeated to the sheet's edge (16,384).
                cells.extend([""] * min(times, budget.limits.max_sheet_columns + 1))
            else:
                budget.take(times)
                cells.extend([text] * times)
            if len(cells) > budget.limits.max_sheet_columns and any(
                cells[budget.limits.max_sheet_columns :]
            ):
                raise PayloadTooLarge(
                    f"sheet has more than {budget.limits.max_sheet_columns} columns"
                )
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            row_index += repeat  # blank rows repeated to the sheet's edge cost nothing
            continue
        budget.take(len(cells) * repeat)
        for _ in range(repeat):
            yield list(cells)
        row_index += repeat


def _odf_table() -> Any:
    from odf import table

    return table


class OdsParser:
    """Parses OpenDocument spreadsheets."""

    format = "ods"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Inspect the zip, then read each table's cells (repeats expanded within limits)."""
        from odf.opendocument import load

        inspect_archive(data, limits, what="ODS", required="content.xml")
        out = TextBuilder()
        budget = _Budget(limits)
        try:
            document = load(io.BytesIO(data))
            for table in document.spreadsheet.getElementsByType(_odf_table().Table):
                add_sheet(out, str(table.getAttribute("name") or ""), _ods_rows(table, budget))
        except PayloadTooLarge:
            raise
        except Exception as exc:  # odfpy raises many types on malformed XML
            raise UnprocessableDocument(f"corrupt ODS: {exc}") from exc
        if not out.blocks:
            raise UnprocessableDocument("empty document: no sheet has a value")
        return finish(out.text(), out.blocks, format=self.format, title=title, limits=limits)
