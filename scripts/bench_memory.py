"""Peak memory of ingesting one document, per format and size (`scripts/bench-ingest --memory`).

Each (format, size) runs in a fresh Python process that loads the built-in embedding model
(whose tokenizer the chunker counts with), then parses, builds the tree and chunks one
generated document with the worker's own limits (ARBOR_INGEST_MEMORY_MB), and writes its
tree's JSON as the store step sends it, the chunks still held. With `--reindex`, the document
starts from its stored tree instead (the JSON the database returns, decoded to dicts), read
back as a reindex did (validated) and as it does (rebuilt, app/ingestion/stored.py). Its
peak RSS (VmHWM, reset to the current RSS once the model is loaded) less the RSS before the
document is what the document cost. Embedding runs in batches of ARBOR_EMBED_BATCH_SIZE chunks
and is not part of it.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = [
    "the",
    "river",
    "floods",
    "in",
    "spring",
    "and",
    "seeds",
    "sprout",
    "across",
    "wet",
    "soil",
    "near",
    "old",
    "stone",
    "bridges",
    "while",
    "farmers",
    "measure",
    "rainfall",
    "record",
    "yields",
    "and",
    "compare",
    "notes",
    "on",
    "drainage",
    "and",
    "crop",
    "rotation",
]
KINDS = ("text", "text-one-line", "markdown", "html", "csv", "docx", "pdf")


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "."


def _paragraphs(rng: random.Random, size: int) -> list[str]:
    found: list[str] = []
    total = 0
    while total < size:
        paragraph = " ".join(_sentence(rng) for _ in range(rng.randint(2, 6)))
        found.append(paragraph)
        total += len(paragraph) + 2
    return found


def generate(kind: str, size: int) -> bytes:
    """About `size` bytes of a document of `kind`."""
    rng = random.Random(18)
    if kind == "text-one-line":
        line = " ".join(rng.choice(WORDS) for _ in range(size // 5))
        return line[:size].encode()
    if kind == "text":
        return "\n\n".join(_paragraphs(rng, size)).encode()
    if kind == "markdown":
        parts = []
        for index, paragraph in enumerate(_paragraphs(rng, size)):
            if index % 8 == 0:
                parts.append(f"{'#' * (1 + index % 3)} Section {index}")
            parts.append(f"- {paragraph}" if index % 5 == 4 else paragraph)
        return "\n\n".join(parts).encode()
    if kind == "html":
        body = "".join(
            (f"<h2>Section {i}</h2>" if i % 8 == 0 else "") + f"<p>{p}</p>\n"
            for i, p in enumerate(_paragraphs(rng, size))
        )
        return f"<html><head><title>Bench</title></head><body>{body}</body></html>".encode()
    if kind == "csv":
        rows = ["id,region,note"]
        total = 0
        while total < size:
            row = f"{len(rows)},north,{_sentence(rng)}"
            rows.append(row)
            total += len(row) + 1
        return "\n".join(rows).encode()
    if kind == "docx":
        import docx

        document = docx.Document()
        # Word XML deflates well: three times the text for about `size` bytes of DOCX.
        for index, paragraph in enumerate(_paragraphs(rng, size * 3)):
            if index % 8 == 0:
                document.add_heading(f"Section {index}", level=1 + index % 2)
            document.add_paragraph(paragraph)
        buffer = io.BytesIO()
        document.save(buffer)
        return buffer.getvalue()
    if kind == "pdf":
        from fpdf import FPDF

        pdf = FPDF()
        pdf.set_font("helvetica", size=9)
        # Text streams deflate about 3:1: three times the text for `size` bytes of PDF.
        for paragraph in _paragraphs(rng, size * 3):
            if pdf.page_no() == 0 or pdf.get_y() > 260:
                pdf.add_page()
            pdf.multi_cell(0, 4, paragraph, new_x="LMARGIN", new_y="NEXT")
        return bytes(pdf.output())
    raise ValueError(kind)


def _status_bytes(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def _reset_peak() -> int:
    """Reset the process's peak RSS (VmHWM) to its current RSS (Linux: clear_refs 5), so the
    peak read afterwards is the document's, not the model loading's; returns that RSS."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_bytes("VmRSS")


def measure(kind: str, size: int, path: str = "upload") -> dict[str, object]:
    """Run in the child: one document through parse (or, for a reindex, its stored tree read
    back, `validated` or `rebuilt`), tree and chunking."""
    from app.config import Settings
    from app.documents.ingest_work import token_counter
    from app.documents.stored_tree import tree_json
    from app.embeddings.registry import DEFAULT_LOCAL, build_provider
    from app.ingestion import ChunkingConfig, chunk_document, parse_document
    from app.ingestion.parsers import ParsedDocument, ParseLimits
    from app.ingestion.stored import stored_document
    from app.kit.errors import AppError

    settings = Settings()
    provider = build_provider(DEFAULT_LOCAL, model_dir=settings.model_dir)
    counter, window = token_counter(provider)
    data = generate(kind, size)
    upload_bytes = len(data)

    def parse() -> ParsedDocument:
        return parse_document(
            data,
            format=None if kind.startswith("text") else kind,
            filename=f"bench.{'txt' if kind.startswith('text') else kind}",
            limits=ParseLimits.within(settings.ingest_memory_bytes),
        )

    # A reindex starts from the stored tree, as the database sends it (not counted).
    stored_json = bytes(tree_json(parse())) if path != "upload" else b""
    before = _reset_peak()
    started = time.perf_counter()
    outcome = "ok"
    chunks = 0
    try:
        if path == "upload":
            parsed = parse()
            data = b""  # the pipeline drops the upload's bytes once parsed
        else:
            # What the driver and SQLAlchemy's JSONB type make of the column: a str, then dicts.
            stored = json.loads(stored_json.decode())
            if path == "validated":
                parsed = ParsedDocument.model_validate(stored)
            else:
                parsed = stored_document(stored)
            del stored
        drafts = chunk_document(parsed, ChunkingConfig(), counter, embedder_window=window)
        chunks = len(drafts)
        # As the pipeline does after chunking: the tree's JSON made (deflated as it is
        # written), then the tree dropped and the JSON held while the chunks are embedded; the
        # store step streams it by COPY, inflated in 1 MiB slices.
        held = tree_json(parsed)
        del parsed
        del held, drafts
    except AppError as exc:
        outcome = f"refused: {exc.detail[:90]}"
    peak = _status_bytes("VmHWM")
    return {
        "format": kind,
        "bytes": upload_bytes,
        "before": before,
        "peak": peak,
        "seconds": time.perf_counter() - started,
        "chunks": chunks,
        "outcome": outcome,
    }


def run(sizes_mb: list[float], formats: list[str], paths: list[str]) -> None:
    print("| format | upload | RSS before | peak RSS | added | added / upload | chunks | s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for kind, size_mb, path in ((k, s, p) for k in formats for s in sizes_mb for p in paths):
        label = kind if path == "upload" else f"{kind}, reindex ({path})"
        child = subprocess.run(
            [
                sys.executable,
                "-m",
                "scripts.bench_memory",
                kind,
                str(int(size_mb * 1e6)),
                path,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if child.returncode != 0:
            print(f"| {label} | {size_mb} MB | failed: {child.stderr.strip()[-200:]} |")
            continue
        row = json.loads(child.stdout.strip().splitlines()[-1])
        mib = 2**20
        added = (row["peak"] - row["before"]) / mib
        note = "" if row["outcome"] == "ok" else f" ({row['outcome']})"
        print(
            f"| {label} | {row['bytes'] / 1e6:.1f} MB | {row['before'] / mib:.0f} MiB | "
            f"{row['peak'] / mib:.0f} MiB | {added:.0f} MiB | "
            f"{added * mib / row['bytes']:.1f}x | {row['chunks']}{note} | "
            f"{row['seconds']:.1f} |",
            flush=True,
        )


def main(argv: list[str]) -> None:
    """`scripts/bench-ingest --memory [--sizes 1,5,10] [--kinds text,docx,...] [--reindex]`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memory", action="store_true", required=True)
    parser.add_argument("--sizes", default="1,5,10", help="upload sizes in MB, comma-separated")
    parser.add_argument("--kinds", default=",".join(KINDS), help="formats, comma-separated")
    parser.add_argument(
        "--reindex",
        action="store_true",
        help="a reindex instead of an upload: the stored tree read back, validated (as it was) "
        "and rebuilt (as it is)",
    )
    args = parser.parse_args(argv)
    paths = ["validated", "rebuilt"] if args.reindex else ["upload"]
    run([float(size) for size in args.sizes.split(",")], args.kinds.split(","), paths)


if __name__ == "__main__":
    # The child process of `run`: one document, its figures as one JSON line.
    print(json.dumps(measure(sys.argv[1], int(sys.argv[2]), sys.argv[3])))
