"""What formats hand on besides their tree: e-mail headers as metadata, JSON text fields, and
merged chunks' spans through export, import and knowledge-base copy."""

from __future__ import annotations

import json
from email.message import EmailMessage
from typing import Any

import httpx
import pytest

from app.ingestion import parse_document
from app.ingestion.tree import ParagraphNode, iter_nodes
from tests.test_knowledge_base_copy import ready_documents

KBS = "/v1/knowledge-bases"
SPANS_TEXT = "# T\n\nIntro.\n\n## S1\n\nOne kestrel.\n\n## S2\n\n### S2.1\n\nNested content."
RECORDS = [
    {"title": "Kettle", "body": "Boils water in a minute.\n\nHas a limescale filter.", "sku": "k1"},
    {"title": "Toaster", "body": "Two slots.", "specs": {"watts": 800}},
]


def mail() -> bytes:
    message = EmailMessage()
    message["From"] = "Ann Lee <Ann@Example.com>"
    message["To"] = "team@example.com, Bob <bob@example.com>"
    message["Cc"] = "carol@example.com"
    message["Subject"] = "Quarterly numbers"
    message["Date"] = "Mon, 02 Mar 2026 10:00:00 +0100"
    message["Message-ID"] = "<q1@example.com>"
    message.set_content("Hello team,\n\nThe heron count doubled this quarter.\n\nAnn")
    return message.as_bytes()


def paragraphs(parsed: Any) -> list[str]:
    return [n.text for n in iter_nodes(parsed.root) if isinstance(n, ParagraphNode)]


async def create_kb(client: httpx.AsyncClient, name: str, **extra: Any) -> None:
    created = await client.post(KBS, json={"name": name, **extra})
    assert created.status_code == 201, created.text


def test_eml_headers_are_the_parsed_documents_metadata() -> None:
    parsed = parse_document(mail(), filename="numbers.eml")
    assert parsed.metadata == {
        "from": "ann@example.com",
        "to": ["team@example.com", "bob@example.com"],
        "cc": ["carol@example.com"],
        "date": "2026-03-02T09:00:00+00:00",
        "subject": "Quarterly numbers",
        "message_id": "<q1@example.com>",
    }
    # Bytes that are not UTF-8 in a header still give storable text; absent headers no key.
    raw = b"From: x@example.org\r\nSubject: caf\xe9 \xff\r\nDate: someday\r\n\r\nBody text."
    broken = parse_document(raw, filename="raw.eml")
    assert broken.metadata is not None
    assert set(broken.metadata) == {"from", "subject", "date"}
    assert broken.metadata["date"] == "someday"  # not a date: kept as written
    assert "\ufffd" in broken.metadata["subject"]
    assert parse_document(b"# Title\n\ntext", format="markdown").metadata is None


async def test_eml_headers_merge_under_upload_metadata_and_filter(
    client: httpx.AsyncClient,
) -> None:
    await create_kb(client, "mail")
    uploaded = await client.post(
        f"{KBS}/mail/documents",
        params={"wait": "true"},
        files={"file": ("numbers.eml", mail(), "message/rfc822")},
        data={"metadata": json.dumps({"subject": "Q1 (filed)", "team": "ops"})},
    )
    document = uploaded.json()
    assert document["status"] == "ready", document
    metadata = document["metadata"]
    assert metadata["subject"] == "Q1 (filed)"  # the upload's own key wins
    assert (metadata["team"], metadata["from"]) == ("ops", "ann@example.com")
    assert metadata["to"] == ["team@example.com", "bob@example.com"]
    await client.post(
        f"{KBS}/mail/documents",
        params={"wait": "true"},
        json={"text": "The heron count is a note, not a mail.", "external_id": "note"},
    )

    async def hits(filter: dict[str, Any]) -> set[str]:
        found = await client.post(
            f"{KBS}/mail/search", json={"query": "heron", "mode": "text", "filter": filter}
        )
        assert found.status_code == 200, found.text
        return {hit["doc_id"] for hit in found.json()["hits"]}

    assert await hits({"metadata.from": "ann@example.com"}) == {document["id"]}
    assert await hits({"metadata.to": {"$contains": "bob@example.com"}}) == {document["id"]}
    assert await hits({"metadata.date": {"$gte": "2026-03-01"}}) == {document["id"]}
    assert await hits({"metadata.from": "bob@example.com"}) == set()
    listed = await client.get(
        f"{KBS}/mail/documents", params={"filter": json.dumps({"metadata.cc": {"$exists": True}})}
    )
    assert [d["id"] for d in listed.json()["items"]] == [document["id"]]
    chunks = (await client.get(f"{KBS}/mail/documents/{document['id']}/chunks")).json()
    assert all(c["metadata"]["from"] == "ann@example.com" for c in chunks["items"])


def test_json_text_fields_are_the_records_text() -> None:
    data = json.dumps(RECORDS).encode()
    parsed = parse_document(data, filename="items.json", json_text_fields=["body", "specs"])
    assert paragraphs(parsed) == [
        "Boils water in a minute.",
        "Has a limescale filter.",
        "title: Kettle",
        "sku: k1",
        "Two slots.",
        "800",
        "title: Toaster",
    ]
    jsonl = b"\n".join(json.dumps(r).encode() for r in RECORDS)
    lines = parse_document(jsonl, filename="items.jsonl", json_text_fields=["body"])
    assert paragraphs(lines)[:3] == [
        "Boils water in a minute.",
        "Has a limescale filter.",
        "title: Kettle",
    ]
    # Without the setting, every field is a `path: value` line as before.
    assert "body: Two slots." in paragraphs(parse_document(data, filename="items.json"))
    # Other formats ignore it.
    markdown = parse_document(b"# A\n\nbody: b", format="markdown", json_text_fields=["body"])
    assert paragraphs(markdown) == ["body: b"]


async def test_json_text_fields_per_knowledge_base_and_upload(client: httpx.AsyncClient) -> None:
    await create_kb(client, "catalog", chunking={"json_text_fields": ["body"]})
    files = {"file": ("items.json", json.dumps(RECORDS).encode(), "application/json")}
    uploaded = await client.post(f"{KBS}/catalog/documents", params={"wait": "true"}, files=files)
    document = uploaded.json()
    assert document["status"] == "ready", document
    chunks = (await client.get(f"{KBS}/catalog/documents/{document['id']}/chunks")).json()
    texts = [c["text"] for c in chunks["items"]]
    assert texts[0].startswith("Boils water in a minute.\n\nHas a limescale filter."), texts
    assert not any("body:" in t for t in texts)
    # An upload's chunking overrides the knowledge base's, as for any chunking setting.
    override = await client.post(
        f"{KBS}/catalog/documents",
        params={"wait": "true"},
        # Other bytes: the same bytes again are the same document (deduplicated by hash).
        files={"file": ("items.json", json.dumps(RECORDS[:1]).encode(), "application/json")},
        data={"chunking": json.dumps({"json_text_fields": ["title"]}), "external_id": "o"},
    )
    assert override.json()["status"] == "ready", override.text
    tree = (await client.get(f"{KBS}/catalog/documents/o/tree")).json()["root"]
    first = tree["children"][0]["children"]
    assert first[0]["text"] == "Kettle"
    assert first[1]["text"].startswith("body: Boils water in a minute.")


@pytest.mark.parametrize(
    "setting",
    [[], ["body", "body"], [""], ["  "], "body", [1], ["x" * 201], ["a\u0000"], ["f"] * 33],
)
async def test_bad_json_text_fields_are_422(client: httpx.AsyncClient, setting: Any) -> None:
    bad = await client.post(KBS, json={"name": "bad", "chunking": {"json_text_fields": setting}})
    assert bad.status_code == 422, bad.text
    await create_kb(client, "good")
    patched = await client.patch(f"{KBS}/good", json={"chunking": {"json_text_fields": setting}})
    assert patched.status_code == 422, patched.text
    upload = await client.post(
        f"{KBS}/good/documents",
        json={"text": "[1]", "chunking": {"json_text_fields": setting}},
    )
    assert upload.status_code == 422, upload.text
    assert upload.headers["content-type"].startswith("application/problem+json")


async def spans_document(client: httpx.AsyncClient, kb: str) -> list[dict[str, Any]]:
    await create_kb(client, kb)
    uploaded = await client.post(
        f"{KBS}/{kb}/documents",
        params={"wait": "true"},
        json={"text": SPANS_TEXT, "format": "markdown", "external_id": "t"},
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    return list((await client.get(f"{KBS}/{kb}/documents/t/chunks")).json()["items"])


async def test_spans_survive_export_and_import(client: httpx.AsyncClient) -> None:
    before = await spans_document(client, "from")
    merged = next(c for c in before if "kestrel" in c["text"])
    assert [s["section_titles"] for s in merged["spans"]] == [["T"], ["T", "S1"]]
    exported = (await client.get(f"{KBS}/from/documents/t/export")).json()
    assert [c["spans"] for c in exported["chunks"]] == [c["spans"] for c in before]

    await create_kb(client, "to")
    imported = await client.post(f"{KBS}/to/documents/import", json=exported)
    assert imported.status_code == 201, imported.text
    after = (await client.get(f"{KBS}/to/documents/t/chunks")).json()["items"]
    assert [c["spans"] for c in after] == [c["spans"] for c in before]
    s1 = merged["spans"][1]["node_path"][-1]
    by_node = await client.get(f"{KBS}/to/documents/t/chunks", params={"node_id": s1})
    assert [c["text"] for c in by_node.json()["items"]] == [merged["text"]]

    # Spans are checked as lineage is: nodes in the tree, ranges inside the text and in order.
    for bad_span, message in [
        ({"node_path": ["nowhere"]}, "nowhere"),
        ({"end": 10_000}, "spans run past"),
        ({"start": 5, "end": 2}, "before it starts"),
        ({"section_titles": ["a\u0000"]}, "NUL"),
    ]:
        body = json.loads(json.dumps(exported))
        body["external_id"] = None
        chunk = next(c for c in body["chunks"] if c["spans"])
        chunk["spans"][0] = {**chunk["spans"][0], **bad_span}
        refused = await client.post(f"{KBS}/to/documents/import", json=body)
        assert refused.status_code == 422, (bad_span, refused.text)
        assert message in refused.text, refused.text

    # Kept chunk ids take the upsert path (a staging table): spans go through it too.
    assert (await client.delete(f"{KBS}/from/documents/t")).status_code == 204
    again = await client.post(
        f"{KBS}/from/documents/import", params={"keep_chunk_ids": "true"}, json=exported
    )
    assert again.status_code == 201, again.text
    kept = (await client.get(f"{KBS}/from/documents/t/chunks")).json()["items"]
    assert [(c["chunk_id"], c["spans"]) for c in kept] == [
        (c["chunk_id"], c["spans"]) for c in before
    ]


async def test_a_copy_keeps_spans(client: httpx.AsyncClient) -> None:
    before = await spans_document(client, "old")
    span = {"node_path": ["n1"], "section_titles": ["Part one"], "start": 0, "end": 4}
    loose = await client.post(
        f"{KBS}/old/documents/import",
        json={"external_id": "loose", "chunks": [{"text": "loose note", "spans": [span]}]},
    )
    assert loose.status_code == 201, loose.text
    copied = await client.post(f"{KBS}/old/copy", json={"name": "new"})
    assert copied.status_code == 202, copied.text
    await ready_documents(client, "new", expect=2)
    # A document with a tree is chunked again: its spans are computed anew, the same.
    after = (await client.get(f"{KBS}/new/documents/t/chunks")).json()["items"]
    assert [c["spans"] for c in after] == [c["spans"] for c in before]
    # One without a tree is copied chunk by chunk, spans included.
    kept = (await client.get(f"{KBS}/new/documents/loose/chunks")).json()["items"]
    assert [c["spans"] for c in kept] == [[span]]


async def test_json_escapes_postgres_cannot_store_do_not_fail_the_document(
    client: httpx.AsyncClient,
) -> None:
    await create_kb(client, "escapes", chunking={"json_text_fields": ["body"]})
    data = b'[{"title": "Nul\\u0000", "body": "a\\u0000b \\ud800 heron", "x": "\\u0000"}]'
    uploaded = await client.post(
        f"{KBS}/escapes/documents",
        params={"wait": "true"},
        files={"file": ("odd.json", data, "application/json")},
    )
    document = uploaded.json()
    assert (document["status"], document["error"]) == ("ready", None), document
    chunks = (await client.get(f"{KBS}/escapes/documents/{document['id']}/chunks")).json()
    assert chunks["items"][0]["text"].startswith("ab ? heron")
