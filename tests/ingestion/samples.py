"""Files of the newer formats, built by the libraries that write them (no checked-in blobs)."""

from __future__ import annotations

import io
import json
import zipfile
from email.message import EmailMessage

FONT_SIZE = 28
PROSE_WORDS = [
    "the", "river", "floods", "in", "spring", "and", "seeds", "sprout", "across", "wet",
    "soil", "near", "old", "bridges",
]  # fmt: skip


def prose_paragraphs(seed: int, count: int) -> list[str]:
    """`count` paragraphs of 2-6 short sentences from a small vocabulary: the densest tree,
    a node per sentence and paragraph."""
    import random

    rng = random.Random(seed)
    return [
        " ".join(
            " ".join(rng.choice(PROSE_WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "."
            for _ in range(rng.randint(2, 6))
        )
        for _ in range(count)
    ]


def xlsx_bytes() -> bytes:
    """Two sheets: merged cells, a formula with a cached value, empty rows and columns."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Budget"
    sheet.append(["Item", None, "Cost", "Owner"])
    sheet.append(["Laptops", None, 1200, "Ann"])
    sheet.append([])
    sheet.append(["Desks", None, 300.5, "Bob"])
    sheet.append(["Chairs", None, 80, None])
    sheet.merge_cells("D4:D5")  # Bob owns desks and chairs
    people = book.create_sheet("People")
    people.append(["Name", "Team"])
    people.append(["Carol", "Platform"])
    book.create_sheet("Empty")
    out = io.BytesIO()
    book.save(out)
    return _with_cached_formula(out.getvalue())


def _with_cached_formula(data: bytes) -> bytes:
    """openpyxl writes formulas without results; add a cell with formula and cached value as
    a spreadsheet program saves it."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet2.xml":
                content = content.replace(
                    b"</sheetData>",
                    b'<row r="3"><c r="A3" t="str"><v>Total</v></c>'
                    b'<c r="B3"><f>1+1</f><v>2</v></c></row></sheetData>',
                )
            target.writestr(item, content)
    return out.getvalue()


def ods_bytes() -> bytes:
    """One sheet, a header and two rows, the last row repeated twice."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="Stock")
    for cells, repeat in ((["Fruit", "Count"], 1), (["Apple", 3], 1), (["Pear", 5], 2)):
        row = TableRow(numberrowsrepeated=repeat) if repeat > 1 else TableRow()
        for value in cells:
            if isinstance(value, int):
                cell = TableCell(valuetype="float", value=value)
            else:
                cell = TableCell(valuetype="string")
            cell.addElement(P(text=str(value)))
            row.addElement(cell)
        table.addElement(row)
    document.spreadsheet.addElement(table)
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def pptx_bytes() -> bytes:
    """Three slides: titled with bullets and notes, a table, and one without a title."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[1])
    first.shapes.title.text = "Roadmap"
    first.placeholders[1].text_frame.text = "Ship the importer in March."
    first.notes_slide.notes_text_frame.text = "Mention the platypus migration budget."
    second = deck.slides.add_slide(deck.slide_layouts[5])
    second.shapes.title.text = "Numbers"
    table = second.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(4), Inches(1)).table
    for r, row in enumerate([["Quarter", "Revenue"], ["Q1", "10"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    third = deck.slides.add_slide(deck.slide_layouts[6])
    box = third.shapes.add_textbox(Inches(1), Inches(3), Inches(5), Inches(1))
    box.text_frame.text = "Lower text."
    top = third.shapes.add_textbox(Inches(1), Inches(1), Inches(5), Inches(1))
    top.text_frame.text = "Upper text."
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def text_image(lines: list[str], *, size: tuple[int, int] = (640, 260)) -> object:
    """A white PIL image with black lines of text; blank strings leave a paragraph gap."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=FONT_SIZE)
    y = 20
    for line in lines:
        if line:
            draw.text((20, y), line, fill="black", font=font)
        y += 40
    return image


def png_bytes(lines: list[str]) -> bytes:
    out = io.BytesIO()
    text_image(lines).save(out, format="PNG")  # type: ignore[attr-defined]
    return out.getvalue()


def tiff_bytes(pages: list[list[str]]) -> bytes:
    images = [text_image(lines, size=(520, 120)) for lines in pages]
    out = io.BytesIO()
    images[0].save(out, format="TIFF", save_all=True, append_images=images[1:])  # type: ignore[attr-defined]
    return out.getvalue()


def epub_bytes() -> bytes:
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("arbor-test")
    book.set_title("Field Guide")
    book.set_language("en")
    chapters = []
    for number, (title, body) in enumerate(
        [
            ("Owls", "<h2>Habitat</h2><p>Owls nest in old barns.</p>"),
            ("Herons", "<p>Herons wait in shallow water.</p>"),
        ],
        start=1,
    ):
        chapter = epub.EpubHtml(title=title, file_name=f"ch{number}.xhtml", lang="en")
        chapter.content = f"<html><body><h1>{title}</h1>{body}</body></html>"
        book.add_item(chapter)
        chapters.append(chapter)
    book.toc = chapters
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = chapters
    out = io.BytesIO()
    epub.write_epub(out, book)
    return out.getvalue()


def eml_bytes(attachment: tuple[str, bytes, str, str] | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = "Ann <ann@example.com>"
    message["To"] = "team@example.com"
    message["Subject"] = "Quarterly numbers"
    message["Date"] = "Mon, 02 Mar 2026 09:00:00 +0000"
    message.set_content("Hello team,\n\nThe numbers are attached.\n\nAnn")
    if attachment is not None:
        name, data, maintype, subtype = attachment
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message.as_bytes()


def json_bytes() -> bytes:
    records = [
        {"id": 7, "title": "Kettle", "specs": {"volume": "1.7 l"}, "tags": ["kitchen"]},
        {"name": "Toaster", "price": 25},
        {"sku": "x1"},
    ]
    return json.dumps(records).encode()


def rtf_bytes() -> bytes:
    return (
        rb"{\rtf1\ansi{\fonttbl\f0\fswiss Helvetica;}\f0\pard "
        rb"First paragraph caf\'e9.\par Second one.\par}"
    )


def odt_bytes() -> bytes:
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P

    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=1, text="Intro"))
    document.text.addElement(P(text="Welcome to the handbook."))
    document.text.addElement(H(outlinelevel=2, text="Details"))
    document.text.addElement(P(text="Details follow here."))
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()
