"""Many JSON documents in one upload request: all accepted or none, ingested like single ones."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers import wait_ready

BASE = "/v1/knowledge-bases/kb"
DOCS = f"{BASE}/documents"
BATCH = f"{DOCS}/batch"


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201


def text_of(name: str) -> str:
    return f"# {name}\n\n" + " ".join(f"{name} sentence number {n}." for n in range(40))


async def test_a_batch_is_queued_in_order_and_becomes_ready(
    client: httpx.AsyncClient, kb: None
) -> None:
    existing = await client.post(
        DOCS, params={"wait": "true"}, json={"text": text_of("old"), "title": "old"}
    )
    assert existing.status_code == 200
    body = {
        "documents": [
            {"text": text_of("one"), "title": "one", "metadata": {"n": 1}},
            {"text": text_of("old"), "title": "old"},
            {"text": text_of("two"), "external_id": "two", "format": "markdown"},
        ]
    }
    response = await client.post(BATCH, json=body)

    assert response.status_code == 202, response.text
    results = response.json()["results"]
    assert [result["created"] for result in results] == [True, False, True]
    assert results[1]["document"]["id"] == existing.json()["id"]
    assert results[0]["document"]["metadata"] == {"n": 1}
    assert results[2]["document"]["external_id"] == "two"
    for result in results:
        document = await wait_ready(client, f"{DOCS}/{result['document']['id']}")
        assert document["status"] == "ready"
        assert document["chunk_count"] >= 1
    assert (await client.get(DOCS)).json()["total"] == 3

    again = await client.post(BATCH, json=body)
    assert again.status_code == 200
    assert [result["created"] for result in again.json()["results"]] == [False, False, False]


@pytest.mark.parametrize(
    ("documents", "status", "says"),
    [
        ([{"text": "fine"}, {"text": "   "}], 422, "documents[1]: The document is empty."),
        (
            [{"text": "fine"}, {"text": "bad\x00byte", "format": "text"}],
            422,
            "documents[1]: The document contains NUL",
        ),
        ([{"text": "fine"}, {"text": "x", "chunking": {"max_tokens": 1}}], 422, "documents[1]"),
        ([{"text": "fine"}, {"title": "no text"}], 422, "documents.1.text"),
        ([], 422, "documents"),
        ([{"text": "x"}] * 1001, 422, "documents"),
    ],
)
async def test_one_bad_document_rejects_the_batch_and_stores_nothing(
    client: httpx.AsyncClient, kb: None, documents: list[dict[str, object]], status: int, says: str
) -> None:
    response = await client.post(BATCH, json={"documents": documents})

    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert says in response.json()["detail"]
    assert (await client.get(DOCS)).json()["total"] == 0


async def test_a_batch_is_json_within_the_upload_limit(
    client: httpx.AsyncClient, kb: None, app: object
) -> None:
    wrong_type = await client.post(BATCH, content=b"text", headers={"content-type": "text/plain"})
    assert wrong_type.status_code == 415
    limit = app.state.settings.max_upload_bytes  # type: ignore[attr-defined]
    half = "a" * (limit // 2)
    too_large = await client.post(BATCH, json={"documents": [{"text": half}, {"text": half}]})
    assert too_large.status_code == 413
    assert (await client.get(DOCS)).json()["total"] == 0


async def test_documents_of_one_batch_see_the_ones_before_them(
    client: httpx.AsyncClient, kb: None
) -> None:
    body = {
        "documents": [
            {"text": text_of("same")},
            {"text": text_of("same")},
            {"text": text_of("first version"), "external_id": "v"},
            {"text": text_of("second version"), "external_id": "v"},
        ]
    }
    response = await client.post(BATCH, json=body)

    assert response.status_code == 202, response.text
    results = response.json()["results"]
    assert [result["created"] for result in results] == [True, False, True, True]
    assert results[1]["document"]["id"] == results[0]["document"]["id"]
    # The later version replaces the earlier one, as if they had been sent one after the other.
    assert results[2]["document"]["external_id"] == "v"
    assert results[3]["document"]["external_id"] is None
    newest = await wait_ready(client, f"{DOCS}/{results[3]['document']['id']}")
    assert (newest["status"], newest["external_id"]) == ("ready", "v")
    assert (await client.get(f"{DOCS}/{results[2]['document']['id']}")).status_code == 404
    assert (await client.get(DOCS)).json()["total"] == 2


async def test_trees_with_every_awkward_character_are_stored_whole(
    client: httpx.AsyncClient, kb: None
) -> None:
    """The store step streams trees as CSV rows: commas, quotes, backslashes, tabs, line ends,
    control characters and non-ASCII text in a batch's documents all come back as uploaded."""
    awkward = 'A "quoted", comma; back\\slash.\tTab \x01 and \x02 here. Ünïcödé 🌊 — π ≈ 3.14.'
    texts = [
        f"# Doc {n}\n\n{awkward}\n\nSecond paragraph {n}. It ends\r\nhere.\n\n" + awkward * n
        for n in range(1, 4)
    ]
    response = await client.post(
        BATCH, json={"documents": [{"text": text, "format": "markdown"} for text in texts]}
    )
    assert response.status_code == 202, response.text
    ids = [result["document"]["id"] for result in response.json()["results"]]
    for doc_id, text in zip(ids, texts, strict=True):
        document = await wait_ready(client, f"{DOCS}/{doc_id}")
        assert document["status"] == "ready", document
        tree = (await client.get(f"{DOCS}/{doc_id}/tree")).json()
        assert awkward in tree["root"]["text"]
        sentences = [
            sentence["text"]
            for section in tree["root"]["children"]
            for paragraph in section["children"]
            for sentence in paragraph.get("children", [])
        ]
        assert 'A "quoted", comma; back\\slash.' in sentences
        assert len(tree["root"]["text"]) >= len(text.strip()) - 2  # CRLF may become LF
