"""The generated SDK, the CLI and `arbor mcp` (stdio) against a real `arbor serve` process."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from fpdf import FPDF
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.auth.helpers import ADMIN_KEY, bearer
from tests.test_real_server import free_port, wait_ready

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "sdk" / "python"))

from arbor_client import AuthenticatedClient  # noqa: E402
from arbor_client.api.answers import answers_knowledge_base  # noqa: E402
from arbor_client.api.documents import (  # noqa: E402
    documents_create,
    documents_delete,
    documents_get_tree,
)
from arbor_client.api.knowledge_bases import (  # noqa: E402
    knowledge_bases_create,
    knowledge_bases_delete,
    knowledge_bases_list,
)
from arbor_client.api.search import search_knowledge_base  # noqa: E402
from arbor_client.models import (  # noqa: E402
    AnswerRequest,
    AnswerResponse,
    DocumentRead,
    DocumentsCreateFilesBody,
    KnowledgeBaseCreate,
    KnowledgeBaseRead,
    PageKnowledgeBaseRead,
    Problem,
    SearchRequest,
    SearchRequestFilterType0,
    SearchResponse,
    TreeRead,
)
from arbor_client.streaming import stream_answer  # noqa: E402
from arbor_client.types import File  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """`arbor serve` on an empty data dir, keys required (the test admin key)."""
    # Not under pytest's base temp: other pytest runs on the machine re-chmod it to 0700,
    # which locks out the embedded server's own user (as conftest's pg_url does).
    root = Path(tempfile.mkdtemp(prefix="arbor-real-clients-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(ARBOR_DATA_DIR=str(root / "data"), PORT=str(port), ARBOR_ADMIN_KEY=ADMIN_KEY)
    log = (root / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        log.close()
        shutil.rmtree(root, ignore_errors=True)


def pdf_bytes() -> bytes:
    pdf = FPDF()
    for page in (1, 2):
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 10, f"Page {page}: the quarterly report covers revenue growth. " * 3)
    return bytes(pdf.output())


def test_sdk_scenario(server: str) -> None:
    with AuthenticatedClient(
        base_url=server, token=ADMIN_KEY, raise_on_unexpected_status=True
    ) as sdk:
        scenario(sdk)


def scenario(sdk: AuthenticatedClient) -> None:
    """Create, upload a PDF and a Markdown file, wait, search with a filter, answer (JSON and
    streamed), read a tree, delete."""
    created = knowledge_bases_create.sync(client=sdk, body=KnowledgeBaseCreate(name="sdk"))
    assert isinstance(created, KnowledgeBaseRead), created
    uploads = [
        ("report.pdf", pdf_bytes(), "application/pdf", {"kind": "report"}),
        ("guide.md", b"# Guide\n\n## Setup\n\nInstall the agent first.\n", "text/markdown",
         {"kind": "guide"}),
    ]  # fmt: skip
    documents: dict[str, DocumentRead] = {}
    for name, data, mime, metadata in uploads:
        body = DocumentsCreateFilesBody(
            file=File(payload=data, file_name=name, mime_type=mime),
            metadata=json.dumps(metadata),
        )
        document = documents_create.sync("sdk", client=sdk, body=body, wait=True, timeout=120)
        assert isinstance(document, DocumentRead), document
        assert document.status == "ready", document
        documents[name] = document
    found = search_knowledge_base.sync(
        "sdk",
        client=sdk,
        body=SearchRequest(
            query="install the agent",
            filter_=SearchRequestFilterType0.from_dict({"metadata.kind": "guide"}),
        ),
    )
    assert isinstance(found, SearchResponse), found
    assert found.hits
    assert {hit.doc_id for hit in found.hits} == {documents["guide.md"].id}
    assert found.hits[0].section_titles[-1] == "Setup"
    question = AnswerRequest(query="What should be installed first?")
    answered = answers_knowledge_base.sync("sdk", client=sdk, body=question)
    assert isinstance(answered, AnswerResponse), answered
    assert answered.citations
    assert answered.citations[0].doc_id == documents["guide.md"].id
    # Streamed (a hand-written helper beside the generated code): deltas, then the answer.
    events = list(stream_answer(sdk, question, kb="sdk"))
    names = [event.event for event in events]
    assert "delta" in names
    assert names[-1] == "done"
    streamed = "".join(event.data["text"] for event in events if event.event == "delta")
    assert streamed == events[-1].data["answer"] == answered.answer
    tree = documents_get_tree.sync("sdk", str(documents["report.pdf"].id), client=sdk)
    assert isinstance(tree, TreeRead), tree
    listed = knowledge_bases_list.sync(client=sdk)
    assert isinstance(listed, PageKnowledgeBaseRead)
    assert "sdk" in [kb.name for kb in listed.items]
    for document in documents.values():
        documents_delete.sync_detailed("sdk", str(document.id), client=sdk)
    gone = documents_get_tree.sync("sdk", str(documents["guide.md"].id), client=sdk)
    assert isinstance(gone, Problem)
    assert gone.status == 404
    deleted = knowledge_bases_delete.sync_detailed("sdk", client=sdk)
    assert deleted.status_code == 204


def arbor(server: str, *args: str, key: str = ADMIN_KEY) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARBOR_URL": server, "ARBOR_API_KEY": key}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_cli_ingest_twice_uploads_nothing_the_second_time(server: str, tmp_path: Path) -> None:
    created = arbor(server, "kb", "create", "cli", "--json")
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["name"] == "cli"
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "leave.md").write_text("# Leave\n\nStaff take twenty-five days of leave.\n")
    (folder / "sub" / "pets.txt").write_text("Dogs are allowed in the office on Fridays.\n")
    (folder / "ignored.bin").write_bytes(b"\x00\x01")
    first = arbor(server, "ingest", str(folder), "--kb", "cli", "--json")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == {"files": 2, "uploaded": 2, "skipped": 0, "failed": 0}
    second = arbor(server, "ingest", str(folder), "--kb", "cli", "--json")
    assert json.loads(second.stdout) == {"files": 2, "uploaded": 0, "skipped": 2, "failed": 0}
    # Not a terminal: no progress bars in the output, only the summary.
    assert "━" not in second.stderr
    (folder / "sub" / "pets.txt").write_text("Cats are allowed in the office on Mondays.\n")
    third = arbor(server, "ingest", str(folder), "--kb", "cli", "--json")
    assert json.loads(third.stdout)["uploaded"] == 1
    searched = arbor(server, "search", "cats in the office", "--kb", "cli", "--json")
    assert searched.returncode == 0, searched.stderr
    hits = json.loads(searched.stdout)["hits"]
    assert "Cats" in hits[0]["text"]
    assert not any("Dogs" in hit["text"] for hit in hits), "the old version is gone"
    asked = arbor(server, "ask", "Which animals are allowed in the office?", "--kb", "cli")
    assert asked.returncode == 0, asked.stderr
    # The answer as it streamed, then its citations, one a line.
    answer, _, citations = asked.stdout.partition("\n\n[1] ")
    assert "Cats" in answer, asked.stdout
    assert citations.startswith("pets"), asked.stdout
    listed = arbor(server, "kb", "list", "--json")
    assert "cli" in [kb["name"] for kb in json.loads(listed.stdout)]
    refused = arbor(server, "kb", "list", key="arb_wrong")
    assert refused.returncode == 1
    assert "401" in refused.stderr


def test_cli_eval_on_a_beir_folder(server: str, tmp_path: Path) -> None:
    beir = tmp_path / "beir"
    (beir / "qrels").mkdir(parents=True)
    corpus = [
        {"_id": "d1", "title": "Volcanoes", "text": "Lava flows from erupting volcanoes."},
        {"_id": "d2", "title": "Bread", "text": "Yeast makes bread dough rise."},
        {"_id": "d3", "title": "Tides", "text": "The moon's gravity pulls the ocean tides."},
    ]
    queries = [{"_id": "q1", "text": "why does dough rise"}, {"_id": "q2", "text": "lava"}]
    (beir / "corpus.jsonl").write_text("\n".join(json.dumps(doc) for doc in corpus))
    (beir / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries))
    (beir / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td2\t1\nq2\td1\t1\n")
    assert arbor(server, "kb", "create", "beir").returncode == 0
    result = arbor(server, "eval", str(beir), "--kb", "beir", "--ingest", "--json")
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert metrics["queries"] == 2
    assert metrics["ingested"] == 3
    assert metrics["ndcg@10"] == pytest.approx(1.0)
    assert metrics["mrr@10"] == pytest.approx(1.0)


async def test_mcp_over_stdio_as_the_key(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, headers=bearer(ADMIN_KEY), timeout=60) as admin:
        (await admin.post("/v1/knowledge-bases", json={"name": "stdio"})).raise_for_status()
        (
            await admin.post(
                "/v1/knowledge-bases/stdio/documents",
                params={"wait": "true"},
                json={
                    "text": "The cafeteria opens at eight.",
                    "access": {"principals": ["group:x"]},
                },
            )
        ).raise_for_status()
        reader = (
            await admin.post(
                "/v1/projects/default/api-keys", json={"name": "reader", "scopes": ["read"]}
            )
        ).json()["key"]
    query = {"query": "cafeteria opening", "knowledge_bases": ["stdio"], "top_k": 5}
    results: dict[str, Any] = {}
    for name, key in (("admin", ADMIN_KEY), ("reader", reader)):
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "app.cli", "mcp"],
            env={**os.environ, "ARBOR_URL": server, "ARBOR_API_KEY": key},
            cwd=str(ROOT),
        )
        async with Client(params) as session:
            tools = await session.list_tools()
            assert "search_knowledge" in {tool.name for tool in tools.tools}
            called = await session.call_tool("search_knowledge", query)
        assert not called.is_error, called
        assert called.structured_content is not None
        results[name] = called.structured_content
        async with httpx.AsyncClient(timeout=60) as http:
            rest = await http.post(f"{server}/v1/search", json=query, headers=bearer(key))
        assert {k: v for k, v in called.structured_content.items() if k != "citations"} == (
            rest.json()
        )
    assert len(results["admin"]["hits"]) == 1
    assert results["reader"]["hits"] == [], "the reader's key has no principal for the document"


async def test_mcp_over_http_on_a_real_server(server: str) -> None:
    """The SDK's client against uvicorn: no standing GET stream, every call a POST."""
    http = httpx2.AsyncClient(headers=bearer(ADMIN_KEY), timeout=60)
    transport = streamable_http_client(f"{server}/mcp", http_client=http)
    async with http, Client(transport) as session:
        tools = await session.list_tools()
        listed = await session.call_tool("list_knowledge_bases", {})
    assert "answer" in {tool.name for tool in tools.tools}
    assert not listed.is_error, listed
    assert listed.structured_content is not None
    assert "items" in listed.structured_content
