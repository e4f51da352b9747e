"""POST /v1/parse: what an upload's ingestion makes of the same bytes, with nothing stored."""

from __future__ import annotations

import asyncio
import io
import threading
import zipfile
from typing import Any

import httpx
import pytest
from docx import Document as DocxDocument
from fastapi import FastAPI
from fpdf import FPDF

from app.ingestion.parse import parse_document
from app.ingestion.parsers import ParsedDocument
from app.parse import service
from tests.auth.helpers import bearer, create_key
from tests.helpers import wait_ready

PARSE = "/v1/parse"
KBS = "/v1/knowledge-bases"
DOCS = f"{KBS}/kb/documents"
LINEAGE = (
    "chunk_index",
    "text",
    "node_path",
    "depth",
    "leaf_node_id",
    "section_titles",
    "doc_title",
    "page_start",
    "page_end",
    "start_offset",
    "end_offset",
)

MARKDOWN = """# Guide

Intro text before the sections is part of the guide: it says who the guide is for, what
you need before you begin, and where to ask when something in it does not work for you.

## Install

Run the installer. It takes a minute on most machines, and it asks for the folder where the
program should live, the language of its menus, and whether to start it when you log in.

## Use

Open the app. Press start. The first screen lists your recent projects, the templates you
can begin from, and the tutorials that walk you through the main features one at a time.
"""


@pytest.fixture
async def kb(admin: httpx.AsyncClient) -> None:
    assert (await admin.post(KBS, json={"name": "kb"})).status_code == 201


def _pdf() -> bytes:
    pdf = FPDF()
    for page in range(1, 3):
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 10, f"Page {page} talks about topic {page}. " * 5)
    return bytes(pdf.output())


def _docx() -> bytes:
    docx = DocxDocument()
    docx.add_heading("Handbook", level=1)
    docx.add_paragraph("Welcome to the handbook. It explains how the company works.")
    docx.add_heading("Holidays", level=2)
    docx.add_paragraph("Twenty five days a year.")
    buffer = io.BytesIO()
    docx.save(buffer)
    return buffer.getvalue()


FILES = {
    "text": ("notes.txt", b"Plain words here. Another sentence follows.\n\nA second paragraph."),
    "markdown": ("guide.md", MARKDOWN.encode()),
    "pdf": ("report.pdf", _pdf()),
    "docx": ("handbook.docx", _docx()),
    "csv": ("people.csv", b"name,city\nAnn,Oslo\nBo,Rome\nCy,Lima\n"),
    "html": (
        "page.html",
        b"<!doctype html><html><head><title>Page</title></head><body><h1>Head</h1>"
        b"<p>Para one. Para two.</p><h2>Sub</h2><p>More text.</p></body></html>",
    ),
}


def _check_ranges(parsed: dict[str, Any]) -> int:
    """Every node's text is its range of the returned text; returns the node count."""
    text, stack, seen = parsed["text"], [parsed["tree"]], 0
    while stack:
        node = stack.pop()
        seen += 1
        start, end = node["range"]["start_offset"], node["range"]["end_offset"]
        assert text[start:end] == node["text"], node["node_id"]
        stack.extend(node.get("children", []))
    assert parsed["tree"]["range"] == {"start_offset": 0, "end_offset": len(text)}
    return seen


async def _uploaded(client: httpx.AsyncClient, response: httpx.Response) -> dict[str, Any]:
    """The upload's document, tree and chunks once it is ready."""
    assert response.status_code in (200, 202), response.text
    document = await wait_ready(client, f"{DOCS}/{response.json()['id']}")
    assert document["status"] == "ready", document
    tree = (await client.get(f"{DOCS}/{document['id']}/tree")).json()
    chunks = (await client.get(f"{DOCS}/{document['id']}/chunks", params={"limit": 200})).json()
    return {"document": document, "tree": tree, "chunks": chunks["items"]}


def _lineage(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: chunk[key] for key in LINEAGE} for chunk in chunks]


@pytest.mark.usefixtures("kb")
async def test_json_text_gives_the_tree_and_chunks_an_upload_gets(
    admin: httpx.AsyncClient,
) -> None:
    response = await admin.post(PARSE, json={"text": MARKDOWN, "knowledge_base": "kb"})
    assert response.status_code == 200, response.text
    parsed = response.json()
    assert (parsed["format"], parsed["title"], parsed["text"]) == ("markdown", "Guide", MARKDOWN)
    assert _check_ranges(parsed) > 5
    # Nothing was stored by parsing.
    assert (await admin.get(DOCS)).json()["total"] == 0
    assert (await admin.get(f"{KBS}/kb/chunks/count")).json()["count"] == 0

    stored = await _uploaded(admin, await admin.post(DOCS, json={"text": MARKDOWN}))
    assert parsed["tree"] == stored["tree"]["root"]
    assert parsed["page_count"] == stored["tree"]["page_count"]
    assert parsed["title"] == stored["document"]["title"]
    assert len(parsed["chunks"]) == stored["document"]["chunk_count"] > 1
    assert _lineage(parsed["chunks"]) == _lineage(stored["chunks"])
    for chunk in parsed["chunks"]:
        assert MARKDOWN[chunk["start_offset"] : chunk["end_offset"]] == chunk["text"]
        assert 0 < chunk["token_count"] <= 256  # the fake embedder's window (an estimate)


@pytest.mark.parametrize(
    ("text", "given", "detected"),
    [
        ("# Title\n\nBody. More.", None, "markdown"),
        ("\ufeff# Title\n\nBody. More.", None, "markdown"),
        ("No heading here. Just words.", None, "text"),
        ("# Title\n\nBody.", "text", "text"),
    ],
)
async def test_format_is_detected_as_uploads_detect_it(
    admin: httpx.AsyncClient, text: str, given: str | None, detected: str
) -> None:
    body = {"text": text} | ({"format": given} if given else {})
    response = await admin.post(PARSE, json=body)
    assert response.status_code == 200, response.text
    assert response.json()["format"] == detected
    _check_ranges(response.json())


@pytest.mark.usefixtures("kb")
@pytest.mark.parametrize("fmt", sorted(FILES))
async def test_every_upload_format_parses_as_its_upload(admin: httpx.AsyncClient, fmt: str) -> None:
    name, data = FILES[fmt]
    response = await admin.post(PARSE, files={"file": (name, data)}, data={"knowledge_base": "kb"})
    assert response.status_code == 200, response.text
    parsed = response.json()
    assert parsed["format"] == fmt
    _check_ranges(parsed)

    stored = await _uploaded(
        admin, await admin.post(DOCS, params={"wait": "true"}, files={"file": (name, data)})
    )
    assert parsed["tree"] == stored["tree"]["root"]
    assert parsed["page_count"] == stored["tree"]["page_count"]
    assert (parsed["format"], parsed["title"]) == (
        stored["document"]["format"],
        stored["document"]["title"],
    )
    assert _lineage(parsed["chunks"]) == _lineage(stored["chunks"])
    if fmt == "pdf":
        assert parsed["page_count"] == 2


@pytest.mark.usefixtures("kb")
async def test_multipart_title_format_and_chunking_override(admin: httpx.AsyncClient) -> None:
    chunking = '{"strategy": "sliding_window", "window_chars": 120, "overlap_chars": 20}'
    fields = {"title": "Mine", "format": "markdown", "chunking": chunking}
    file = {"file": ("guide.txt", MARKDOWN.encode())}
    response = await admin.post(PARSE, files=file, data={**fields, "knowledge_base": "kb"})
    assert response.status_code == 200, response.text
    parsed = response.json()
    assert (parsed["format"], parsed["title"], parsed["tree"]["title"]) == (
        "markdown",
        "Mine",
        "Mine",
    )
    assert len(parsed["chunks"]) > 5
    assert all(len(chunk["text"]) <= 120 for chunk in parsed["chunks"])

    stored = await _uploaded(admin, await admin.post(DOCS, files=file, data=fields))
    assert parsed["tree"] == stored["tree"]["root"]
    assert _lineage(parsed["chunks"]) == _lineage(stored["chunks"])


async def test_no_chunks_without_a_knowledge_base(admin: httpx.AsyncClient) -> None:
    response = await admin.post(PARSE, json={"text": MARKDOWN})
    assert response.status_code == 200
    assert response.json()["chunks"] is None


@pytest.mark.usefixtures("kb")
@pytest.mark.parametrize(
    ("body", "status", "slug", "message"),
    [
        ({"text": "x", "chunking": {"max_tokens": 64}}, 422, "validation-error", "needs a"),
        (
            {"text": "x", "knowledge_base": "kb", "chunking": {"max_tokens": 8192}},
            422,
            "validation-error",
            "exceeds the embedder's window",
        ),
        (
            {"text": "x", "knowledge_base": "kb", "chunking": {"bogus": 1}},
            422,
            "validation-error",
            "Invalid chunking settings",
        ),
        ({"text": "x", "knowledge_base": "nope"}, 404, "not-found", "nope"),
    ],
)
async def test_chunking_errors(
    admin: httpx.AsyncClient, body: dict[str, Any], status: int, slug: str, message: str
) -> None:
    response = await admin.post(PARSE, json=body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["type"].endswith("/" + slug)
    assert message in response.json()["detail"]


def _truncated_pdf() -> bytes:
    return _pdf()[:200]


@pytest.mark.parametrize(
    ("files", "status", "slug"),
    [
        ({"file": ("empty.txt", b"")}, 422, "unprocessable-document"),
        ({"file": ("blank.txt", "\u3000\u00a0\n".encode())}, 422, "unprocessable-document"),
        ({"file": ("bad.txt", b"caf\xc3\x28 latin")}, 422, "unprocessable-document"),
        ({"file": ("nul.txt", b"abc\x00def")}, 422, "unprocessable-document"),
        ({"file": ("img.gif", b"GIF89a" + b"\x00" * 64)}, 415, "unsupported-media-type"),
        ({"file": ("a.zip", b"PK\x05\x06" + b"\x00" * 18)}, 415, "unsupported-media-type"),
        # Found by the parser: in a job an upload fails; here it is the answer.
        ({"file": ("cut.pdf", _truncated_pdf())}, 422, "unprocessable-document"),
        ({"file": ("broken.docx", b"PK\x03\x04 not really a zip")}, 422, "unprocessable-document"),
        ({"file": ("img.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)}, 422, "unprocessable-document"),
        ({"file": ("deck.pptx", b"PK\x03\x04 not really a zip")}, 422, "unprocessable-document"),
    ],
)
async def test_bad_files_get_the_upload_errors(
    admin: httpx.AsyncClient, files: dict[str, tuple[str, bytes]], status: int, slug: str
) -> None:
    response = await admin.post(PARSE, files=files)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["type"].endswith("/" + slug)


async def test_docx_zip_bomb_is_refused(admin: httpx.AsyncClient) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b"0" * (50 << 20))
    response = await admin.post(PARSE, files={"file": ("bomb.docx", buffer.getvalue())})
    assert response.status_code == 422, response.text
    assert "zip bomb" in response.json()["detail"]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"text": "x", "format": "pdf"}, ["body", "format"]),
        ({"text": ""}, ["body", "text"]),
        ({"text": "x", "metadata": {}}, ["body", "metadata"]),
        ({"text": "x", "title": "a\u0000b"}, ["body", "title"]),
    ],
)
async def test_bad_json_fields_are_422_naming_them(
    admin: httpx.AsyncClient, body: dict[str, Any], loc: list[str]
) -> None:
    response = await admin.post(PARSE, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == loc


async def test_nul_in_json_text_is_the_uploads_unprocessable_document(
    admin: httpx.AsyncClient,
) -> None:
    response = await admin.post(PARSE, json={"text": "abc\u0000def"})
    assert response.status_code == 422
    assert response.json()["type"].endswith("/unprocessable-document")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"format": "Markdown"}, "format"),
        ({"metadata": '{"a": 1}'}, "'metadata' is not taken here"),
        ({"metadata": "{}"}, "'metadata' is not taken here"),
        ({"source_uri": ""}, "'source_uri' is not taken here"),
        ({"external_id": "x"}, "'external_id' is not taken here"),
        ({"knowledge_base": "x" * 65}, "knowledge_base"),
    ],
)
async def test_bad_form_fields_are_422(
    admin: httpx.AsyncClient, data: dict[str, str], message: str
) -> None:
    response = await admin.post(PARSE, files={"file": ("a.txt", b"Some text.")}, data=data)
    assert response.status_code == 422, response.text
    assert message in response.json()["detail"]


@pytest.mark.usefixtures("kb")
async def test_the_upload_size_limit_applies(
    admin: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.state.settings, "max_upload_bytes", 1000)
    big = b"word " * 300
    for route in (PARSE, DOCS):
        as_file = await admin.post(route, files={"file": ("big.txt", big)})
        assert as_file.status_code == 413, (route, as_file.text)
        assert as_file.json()["type"].endswith("/payload-too-large")
        as_json = await admin.post(route, json={"text": big.decode()})
        assert as_json.status_code == 413, (route, as_json.text)
    fits = await admin.post(PARSE, files={"file": ("small.txt", b"word " * 100)})
    assert fits.status_code == 200, fits.text


async def test_a_read_key_parses_and_the_key_limits_apply(admin: httpx.AsyncClient) -> None:
    ids = {}
    for name in ("open", "closed"):
        created = await admin.post(KBS, json={"name": name})
        assert created.status_code == 201
        ids[name] = created.json()["id"]
    key = (await create_key(admin, "default", scopes=["read"], knowledge_bases=[ids["open"]]))[
        "key"
    ]
    plain = await admin.post(PARSE, json={"text": "# T\n\nBody."}, headers=bearer(key))
    assert plain.status_code == 200, plain.text
    assert plain.json()["title"] == "T"
    body = {"text": "# T\n\nBody."}
    allowed = await admin.post(PARSE, json=body | {"knowledge_base": "open"}, headers=bearer(key))
    assert allowed.status_code == 200, allowed.text
    assert len(allowed.json()["chunks"]) == 1
    # Outside the key's knowledge bases: as if it did not exist.
    refused = await admin.post(
        PARSE, json=body | {"knowledge_base": ids["closed"]}, headers=bearer(key)
    )
    assert refused.status_code == 404, refused.text


async def test_a_request_without_a_key_is_401(client: httpx.AsyncClient) -> None:
    response = await client.post(PARSE, json={"text": "Some text."})
    assert response.status_code == 401


async def test_parsing_runs_in_a_worker_thread(
    admin: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []

    def recording(data: bytes, **kwargs: Any) -> ParsedDocument:
        threads.append(threading.current_thread())
        return parse_document(data, **kwargs)

    monkeypatch.setattr("app.parse.service.parse_document", recording)
    response = await admin.post(PARSE, json={"text": "Some text."})
    assert response.status_code == 200
    assert len(threads) == 1
    assert threads[0] is not threading.main_thread()


async def test_a_slot_is_held_until_its_thread_ends_even_when_the_request_is_gone() -> None:
    slots = asyncio.Semaphore(1)
    release = threading.Event()
    started = threading.Event()

    def slow() -> bytes:
        started.set()
        release.wait(10)
        return b"done"

    waiting = asyncio.create_task(service.run_bounded(slots, slow))
    await asyncio.to_thread(started.wait, 10)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert slots.locked()  # the thread still parses: its slot is not free
    second = asyncio.create_task(service.run_bounded(slots, lambda: b"second"))
    await asyncio.sleep(0.05)
    assert not second.done()
    release.set()
    assert await asyncio.wait_for(second, 10) == b"second"
    assert not slots.locked()
