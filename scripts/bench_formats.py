"""Parse and chunk a mixed folder of every upload format, in process; print docs/s per format.

Usage: scripts/bench-ingest --formats [--copies 5] [--ocr-pages 3]
The folder is generated (tests/ingestion/samples.py builds each format with the library that
writes it): `--copies` documents of each format, parsed and chunked with the default settings
and the built-in model's tokenizer when it is there (a character estimate otherwise). OCR is
timed apart: `--ocr-pages` one-page PNG scans and a scanned PDF page, as pages/s. Embedding and
storage are not included: `scripts/bench-ingest` measures those through the HTTP API.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.ingestion import (  # noqa: E402
    ChunkingConfig,
    EstimatingCounter,
    TokenCounter,
    TokenizerCounter,
    chunk_document,
    parse_document,
)
from tests.ingestion import samples  # noqa: E402

LINES = ["Invoice 2291 for seventeen lanterns", "delivered to the north depot", "", "Paid."]


def _markdown() -> bytes:
    sections = [f"## Part {n}\n\n" + "A sentence about rivers and lakes. " * 20 for n in range(8)]
    return ("# Guide\n\n" + "\n\n".join(sections)).encode()


def _pdf_scan() -> bytes:
    from fpdf import FPDF

    image = io.BytesIO()
    samples.text_image(LINES).save(image, format="PNG")  # type: ignore[attr-defined]
    pdf = FPDF()
    pdf.add_page()
    pdf.image(image, x=10, y=10, w=180)
    return bytes(pdf.output())


FORMATS: dict[str, tuple[str, Callable[[], bytes]]] = {
    "markdown": ("guide.md", _markdown),
    "xlsx": ("budget.xlsx", samples.xlsx_bytes),
    "ods": ("stock.ods", samples.ods_bytes),
    "pptx": ("deck.pptx", samples.pptx_bytes),
    "epub": ("guide.epub", samples.epub_bytes),
    "eml": ("mail.eml", lambda: samples.eml_bytes(("n.csv", b"a,b\n1,2\n", "text", "csv"))),
    "json": ("items.json", samples.json_bytes),
    "rtf": ("letter.rtf", samples.rtf_bytes),
    "odt": ("handbook.odt", samples.odt_bytes),
}


def _counter() -> TokenCounter:
    tokenizer = ROOT / "models" / "all-MiniLM-L6-v2" / "tokenizer.json"
    return TokenizerCounter.from_file(tokenizer) if tokenizer.exists() else EstimatingCounter()


def _rate(name: str, data: bytes, copies: int, counter: TokenCounter) -> tuple[float, int]:
    started = time.perf_counter()
    chunks = 0
    for _ in range(copies):
        parsed = parse_document(data, filename=name)
        chunks += len(chunk_document(parsed, ChunkingConfig(), counter))
    return copies / (time.perf_counter() - started), chunks // copies


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--formats", action="store_true", help="this benchmark")
    parser.add_argument("--copies", type=int, default=5, help="documents per format")
    parser.add_argument("--ocr-pages", type=int, default=3, help="scanned pages to OCR")
    args = parser.parse_args(argv)
    counter = _counter()
    print(f"{'format':<10} {'docs/s':>9} {'chunks/doc':>10}")
    for fmt, (name, build) in FORMATS.items():
        rate, chunks = _rate(name, build(), args.copies, counter)
        print(f"{fmt:<10} {rate:>9.1f} {chunks:>10}")
    png = samples.png_bytes(LINES)
    parse_document(png, filename="warm.png")  # load the OCR models once, outside the timing
    for fmt, name, data in (("image", "scan.png", png), ("pdf (scan)", "scan.pdf", _pdf_scan())):
        started = time.perf_counter()
        for _ in range(args.ocr_pages):
            parsed = parse_document(data, filename=name)
            assert parsed.ocr_pages == [1], "the page was not read by OCR"
        rate = args.ocr_pages / (time.perf_counter() - started)
        print(f"{fmt:<10} {rate:>9.2f} OCR pages/s")


if __name__ == "__main__":
    main(sys.argv[1:])
