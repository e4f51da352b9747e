"""The chunk API: upsert, bulk, dimension checks, listing, counting, deleting."""

from __future__ import annotations

import base64
import struct
import uuid

import httpx
import pytest

from tests.fakes import FakeEmbedders

KB = "/v1/knowledge-bases/kb"


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> dict[str, object]:
    response = await client.post("/v1/knowledge-bases", json={"name": "kb"})
    assert response.status_code == 201
    body: dict[str, object] = response.json()
    return body


def unit(dimensions: int, hot: int) -> list[float]:
    vector = [0.0] * dimensions
    vector[hot] = 1.0
    return vector


async def test_put_creates_then_replaces(client: httpx.AsyncClient, kb: dict[str, object]) -> None:
    chunk_id = str(uuid.uuid4())
    body = {"text": "Trees have roots.", "doc_id": "doc-1", "node_path": ["r", "s"], "depth": 1}
    created = await client.put(f"{KB}/chunks/{chunk_id}", json=body)
    assert created.status_code == 201, created.text
    chunk = created.json()
    assert chunk["chunk_id"] == chunk_id
    assert chunk["embedded"] is True
    assert chunk["node_path"] == ["r", "s"]
    replaced = await client.put(f"{KB}/chunks/{chunk_id}", json={**body, "text": "Leaves."})
    assert replaced.status_code == 200
    assert replaced.json()["text"] == "Leaves."
    assert replaced.json()["doc_id"] == chunk["doc_id"]


async def test_doc_id_creates_document_once(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    for _ in range(2):
        await client.put(f"{KB}/chunks/{uuid.uuid4()}", json={"text": "x", "doc_id": "ext-9"})
    info = (await client.get(KB)).json()
    assert info["document_count"] == 1
    assert info["chunk_count"] == 2


async def test_supplied_vector_is_stored_and_not_embedded(
    client: httpx.AsyncClient, kb: dict[str, object], embedders: FakeEmbedders
) -> None:
    chunk_id = uuid.uuid4()
    vector = unit(384, 7)
    response = await client.put(
        f"{KB}/chunks/{chunk_id}", json={"text": "t", "doc_id": "d", "vector": vector}
    )
    assert response.status_code == 201
    assert all(not calls for e in embedders.by_dimensions.values() for calls in e.calls)
    got = await client.get(f"{KB}/chunks/{chunk_id}", params={"include_vector": True})
    assert got.json()["vector"] == vector


async def test_wrong_dimension_is_422_naming_both(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    response = await client.put(
        f"{KB}/chunks/{uuid.uuid4()}", json={"text": "t", "doc_id": "d", "vector": [0.1, 0.2]}
    )
    assert response.status_code == 422
    body = response.json()
    assert "384" in body["detail"]
    assert "2 dimensions" in body["detail"]
    assert (body["expected_dimensions"], body["given_dimensions"]) == (384, 2)


async def test_nan_vector_is_rejected(client: httpx.AsyncClient, kb: dict[str, object]) -> None:
    response = await client.post(
        f"{KB}/chunks/bulk",
        content=b'{"chunks":[{"text":"t","doc_id":"d","vector":[NaN]}]}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422


async def test_bulk_is_all_or_nothing(client: httpx.AsyncClient, kb: dict[str, object]) -> None:
    good = [{"text": f"chunk {i}", "doc_id": "d1", "chunk_index": i} for i in range(5)]
    bad = {"text": "bad", "doc_id": "d1", "vector": [1.0, 2.0]}
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": [*good, bad]})
    assert response.status_code == 422
    assert "chunks[5].vector" in response.json()["detail"]
    count = (await client.get(f"{KB}/chunks/count")).json()
    assert count == {"count": 0, "embedded": 0, "not_embedded": 0}
    assert (await client.get(KB)).json()["document_count"] == 0


async def test_bulk_body_is_json_within_its_limit(
    client: httpx.AsyncClient, kb: dict[str, object], app: object
) -> None:
    wrong_type = await client.post(
        f"{KB}/chunks/bulk", content=b"text", headers={"content-type": "text/plain"}
    )
    assert wrong_type.status_code == 415
    app.state.settings.max_bulk_bytes = 2_000  # type: ignore[attr-defined]
    chunks = [{"text": "x" * 500, "doc_id": "d1", "chunk_index": i} for i in range(5)]
    too_large = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert too_large.status_code == 413
    assert too_large.headers["content-type"] == "application/problem+json"
    within = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks[:2]})
    assert within.status_code == 200, within.text
    assert (await client.get(f"{KB}/chunks/count")).json()["count"] == 2


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (b'{"chunks": [{"text": "a", "doc_id": "d"}', "body"),  # cut off: not JSON
        (b'{"chunks": [{"text": "a"}]}', "body.chunks.0.doc_id"),
        (b'{"chunks": [{"text": "a", "doc_id": "d", "depth": -1}]}', "body.chunks.0.depth"),
        (b'{"chunks": []}', "body.chunks"),
    ],
)
async def test_invalid_bulk_bodies_are_422_naming_the_field(
    client: httpx.AsyncClient, kb: dict[str, object], body: bytes, where: str
) -> None:
    response = await client.post(
        f"{KB}/chunks/bulk", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    problem = response.json()
    assert problem["type"].endswith("validation-error")
    assert any(".".join(error["loc"]).startswith(where) for error in problem["errors"])
    assert (await client.get(f"{KB}/chunks/count")).json()["count"] == 0


async def test_bulk_with_vectors(client: httpx.AsyncClient, kb: dict[str, object]) -> None:
    chunks = [
        {"text": f"c{i}", "doc_id": f"d{i % 3}", "chunk_index": i, "vector": unit(384, i)}
        for i in range(30)
    ]
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["count"] == result["embedded"] == 30
    assert len(set(result["chunk_ids"])) == 30
    info = (await client.get(KB)).json()
    assert (info["document_count"], info["chunk_count"]) == (3, 30)


def base64_vector(values: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()


async def test_vectors_may_come_as_base64_float32(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    values = [((i * 7) % 11 - 5) / 8 for i in range(384)]  # exact in float32
    chunk_ids = [str(uuid.uuid4()), str(uuid.uuid4())]
    chunks = [
        {"chunk_id": chunk_ids[0], "text": "a", "doc_id": "d", "vector": base64_vector(values)},
        {"chunk_id": chunk_ids[1], "text": "b", "doc_id": "d", "vector": values},
    ]
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert response.status_code == 200, response.text
    stored = [
        (await client.get(f"{KB}/chunks/{chunk_id}", params={"include_vector": True})).json()
        for chunk_id in chunk_ids
    ]
    assert stored[0]["vector"] == stored[1]["vector"] == values


@pytest.mark.parametrize(
    ("vector", "message"),
    [
        ("not base64!", "neither a list of numbers nor base64"),
        (base64.b64encode(b"12345").decode(), "not a whole number of float32"),
        (base64.b64encode(struct.pack("<3f", 1, 2, 3)).decode(), "has 3 dimensions"),
        (base64.b64encode(struct.pack("<f", float("nan")) * 384).decode(), "NaN or infinite"),
    ],
)
async def test_bad_base64_vectors_are_refused(
    client: httpx.AsyncClient, kb: dict[str, object], vector: str, message: str
) -> None:
    response = await client.put(
        f"{KB}/chunks/{uuid.uuid4()}", json={"text": "a", "doc_id": "d", "vector": vector}
    )
    assert response.status_code == 422
    assert message in response.json()["detail"]


async def test_bulk_base64_vectors_are_stored_exactly(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    # All base64 of the right size: decoded as one matrix (service.supplied_vectors).
    vectors = [[((i * 7 + k) % 11 - 5) / 8 for i in range(384)] for k in range(3)]
    chunk_ids = [str(uuid.uuid4()) for _ in vectors]
    chunks = [
        {"chunk_id": chunk_id, "text": f"t{k}", "doc_id": "d", "vector": base64_vector(values)}
        for k, (chunk_id, values) in enumerate(zip(chunk_ids, vectors, strict=True))
    ]
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert response.status_code == 200, response.text
    stored = [
        (await client.get(f"{KB}/chunks/{chunk_id}", params={"include_vector": True})).json()
        for chunk_id in chunk_ids
    ]
    assert [chunk["vector"] for chunk in stored] == vectors


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (base64.b64encode(struct.pack("<f", float("inf")) * 384).decode(), "NaN or infinite"),
        ("!" + base64_vector([0.5] * 384)[1:], "neither a list of numbers nor base64"),
    ],
)
async def test_bulk_names_the_bad_vector_among_good_ones(
    client: httpx.AsyncClient, kb: dict[str, object], bad: str, message: str
) -> None:
    good = base64_vector([0.25] * 384)
    assert len(bad) == len(good)  # the same size: only decoding or checking tells them apart
    chunks = [{"text": f"t{k}", "doc_id": "d", "vector": bad if k == 2 else good} for k in range(4)]
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert response.status_code == 422
    assert "chunks[2].vector" in response.json()["detail"]
    assert message in response.json()["detail"]
    assert (await client.get(f"{KB}/chunks/count")).json()["count"] == 0


async def test_duplicate_ids_in_bulk_rejected(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    chunk_id = str(uuid.uuid4())
    chunks = [{"chunk_id": chunk_id, "text": "a", "doc_id": "d"}] * 2
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert response.status_code == 422


async def test_a_chunk_id_of_another_kb_is_its_own_chunk_here(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    await client.post("/v1/knowledge-bases", json={"name": "other"})
    chunk_id = str(uuid.uuid4())
    first = await client.put(
        f"/v1/knowledge-bases/other/chunks/{chunk_id}", json={"text": "mine", "doc_id": "d"}
    )
    assert first.status_code == 201
    here = await client.put(f"{KB}/chunks/{chunk_id}", json={"text": "yours", "doc_id": "d"})
    assert here.status_code == 201, here.text
    still = await client.get(f"/v1/knowledge-bases/other/chunks/{chunk_id}")
    assert still.json()["text"] == "mine"
    assert (await client.get(f"{KB}/chunks/{chunk_id}")).json()["text"] == "yours"


async def test_unchanged_text_is_not_embedded_again(
    client: httpx.AsyncClient, kb: dict[str, object], embedders: FakeEmbedders
) -> None:
    chunks = [{"text": f"text {i}", "doc_id": "d"} for i in range(4)]
    await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    embedder = embedders.by_dimensions[384]
    assert sum(len(c) for c in embedder.calls) == 4
    await client.post(
        f"{KB}/chunks/bulk", json={"chunks": [*chunks, {"text": "new", "doc_id": "d"}]}
    )
    assert sum(len(c) for c in embedder.calls) == 5
    assert embedder.calls[-1] == ["new"]


async def test_changed_text_is_re_embedded(
    client: httpx.AsyncClient, kb: dict[str, object], embedders: FakeEmbedders
) -> None:
    chunk_id = uuid.uuid4()
    await client.put(f"{KB}/chunks/{chunk_id}", json={"text": "v1", "doc_id": "d"})
    first = (await client.get(f"{KB}/chunks/{chunk_id}", params={"include_vector": 1})).json()
    await client.put(f"{KB}/chunks/{chunk_id}", json={"text": "v2", "doc_id": "d"})
    second = (await client.get(f"{KB}/chunks/{chunk_id}", params={"include_vector": 1})).json()
    assert first["vector"] != second["vector"]
    expected = embedders.by_dimensions[384].vector("v2").tolist()
    assert second["vector"] == pytest.approx(expected, abs=1e-6)


async def test_no_embedder_stores_null_vectors(client: httpx.AsyncClient) -> None:
    await client.post(
        "/v1/knowledge-bases", json={"name": "plain", "embedding": {"provider": "none"}}
    )
    base = "/v1/knowledge-bases/plain"
    chunks = [{"text": f"t{i}", "doc_id": "d"} for i in range(3)]
    chunks.append({"text": "with", "doc_id": "d", "vector": unit(384, 1)})
    assert (await client.post(f"{base}/chunks/bulk", json={"chunks": chunks})).status_code == 200
    assert (await client.get(f"{base}/chunks/count")).json() == {
        "count": 4, "embedded": 1, "not_embedded": 3,
    }  # fmt: skip
    pending = (await client.get(f"{base}/chunks", params={"embedded": False})).json()
    assert sorted(item["text"] for item in pending["items"]) == ["t0", "t1", "t2"]
    assert pending["total"] == 3
    done = (await client.get(f"{base}/chunks", params={"embedded": True})).json()
    assert [item["text"] for item in done["items"]] == ["with"]


async def test_bulk_without_ids_adds_to_the_documents_counts(client: httpx.AsyncClient) -> None:
    """Generated ids take the insert path, which adds to the counts instead of recounting."""
    await client.post(
        "/v1/knowledge-bases", json={"name": "plain", "embedding": {"provider": "none"}}
    )
    base = "/v1/knowledge-bases/plain"
    put = await client.put(f"{base}/chunks/{uuid.uuid4()}", json={"text": "first", "doc_id": "d"})
    assert put.status_code == 201
    for _ in range(2):
        chunks = [
            {"text": "a", "doc_id": "d", "vector": unit(384, 1)},
            {"text": "b", "doc_id": "d"},
            {"text": "c", "doc_id": "e", "vector": unit(384, 2)},
        ]
        response = await client.post(f"{base}/chunks/bulk", json={"chunks": chunks})
        assert response.status_code == 200, response.text
    documents = (await client.get(f"{base}/documents")).json()["items"]
    counts = {doc["external_id"]: (doc["chunk_count"], doc["embedded_count"]) for doc in documents}
    assert counts == {"d": (5, 2), "e": (2, 2)}


async def test_list_by_document_and_paginate(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    chunks = [{"text": f"a{i}", "doc_id": "A", "chunk_index": i} for i in range(5)]
    chunks += [{"text": f"b{i}", "doc_id": "B", "chunk_index": i} for i in range(3)]
    await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    doc_a = (await client.get(f"{KB}/chunks", params={"limit": 1})).json()["items"][0]["doc_id"]
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, object] = {"limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = (await client.get(f"{KB}/chunks", params=params)).json()
        assert page["total"] == 8
        seen += [item["text"] for item in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert sorted(seen) == sorted(c["text"] for c in chunks)
    assert len(seen) == 8
    only = (await client.get(f"{KB}/chunks", params={"doc_id": doc_a, "limit": 50})).json()
    texts = [item["text"] for item in only["items"]]
    assert texts in (["a0", "a1", "a2", "a3", "a4"], ["b0", "b1", "b2"])


async def test_delete_document_chunks_and_clear(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    chunks = [{"text": f"a{i}", "doc_id": "A"} for i in range(3)]
    chunks += [{"text": f"b{i}", "doc_id": "B"} for i in range(2)]
    await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    deleted = await client.delete(f"{KB}/documents/A/chunks")
    assert deleted.json() == {"deleted": 3}
    assert (await client.get(f"{KB}/chunks/count")).json()["count"] == 2
    assert (await client.delete(f"{KB}/documents/missing/chunks")).status_code == 404
    cleared = await client.delete(f"{KB}/chunks")
    assert cleared.json() == {"deleted": 2}
    info = (await client.get(KB)).json()
    assert (info["document_count"], info["chunk_count"]) == (2, 0)


async def test_deleting_kb_removes_chunks(client: httpx.AsyncClient, kb: dict[str, object]) -> None:
    await client.post(f"{KB}/chunks/bulk", json={"chunks": [{"text": "x", "doc_id": "d"}]})
    assert (await client.delete(KB)).status_code == 204
    await client.post("/v1/knowledge-bases", json={"name": "kb"})
    assert (await client.get(f"{KB}/chunks/count")).json()["count"] == 0


async def test_unknown_chunk_is_404(client: httpx.AsyncClient, kb: dict[str, object]) -> None:
    response = await client.get(f"{KB}/chunks/{uuid.uuid4()}")
    assert response.status_code == 404
    assert (await client.get(f"{KB}/chunks/not-a-uuid")).status_code == 422


async def test_zero_vectors_are_refused(client: httpx.AsyncClient, kb: dict[str, object]) -> None:
    # Cosine to a zero vector is undefined: stored, it came back with a null score.
    single = await client.put(
        f"{KB}/chunks/{uuid.uuid4()}", json={"text": "a", "doc_id": "d", "vector": [0.0] * 384}
    )
    assert single.status_code == 422
    assert "all zeros" in single.json()["detail"]
    good = base64_vector([0.25] * 384)
    zero = base64_vector([0.0] * 384)  # the same size: the one-matrix check must catch it
    chunks = [
        {"text": f"t{k}", "doc_id": "d", "vector": zero if k == 1 else good} for k in range(3)
    ]
    bulk = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert bulk.status_code == 422
    assert bulk.json()["detail"].startswith("chunks[1].vector is all zeros")
    assert (await client.get(f"{KB}/chunks/count")).json()["count"] == 0


async def test_vectors_beyond_float32_are_refused(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    response = await client.put(
        f"{KB}/chunks/{uuid.uuid4()}", json={"text": "a", "doc_id": "d", "vector": [1e39] * 384}
    )
    assert response.status_code == 422
    assert "NaN or infinite" in response.json()["detail"]


async def test_a_document_the_chunk_api_makes_is_announced_once(
    client: httpx.AsyncClient, kb: dict[str, object]
) -> None:
    chunks = [{"text": f"note {i}", "doc_id": "notes", "doc_title": "Notes"} for i in range(3)]
    first = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    assert first.status_code == 200, first.text
    again = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks[:1]})
    assert again.status_code == 200, again.text
    events = (await client.get("/v1/events", params={"type": "document.ready"})).json()["items"]
    assert len(events) == 1  # made by the first request; the second added to it
    data = events[0]["data"]
    assert (data["external_id"], data["title"], data["chunk_count"]) == ("notes", "Notes", 3)


@pytest.mark.parametrize(
    "field", ["chunk_index", "depth", "page_start", "page_end", "start_offset", "end_offset"]
)
async def test_integers_past_the_column_range_are_422(
    client: httpx.AsyncClient, kb: dict[str, object], field: str
) -> None:
    """The columns are Postgres integers: 2**31 overflowed when written (a 500)."""
    body = {"doc_id": "big", "text": "hello", field: 2**31}
    response = await client.put(f"/v1/knowledge-bases/kb/chunks/{uuid.uuid4()}", json=body)
    assert response.status_code == 422, response.text
    assert field in response.text
    bulk = await client.post("/v1/knowledge-bases/kb/chunks/bulk", json={"chunks": [body]})
    assert bulk.status_code == 422, bulk.text
    assert (await client.get("/v1/knowledge-bases/kb/documents/big")).status_code == 404
