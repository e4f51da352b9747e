"""The checked-in OpenAPI document is what the app serves."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

SPEC = Path(__file__).resolve().parents[1] / "openapi" / "openapi.json"


async def test_checked_in_spec_matches_app(client: httpx.AsyncClient) -> None:
    served = (await client.get("/openapi.json")).json()
    assert json.loads(SPEC.read_text()) == served, "run scripts/export-openapi"


async def test_operations_have_ids_tags_and_error_responses(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    operation_ids: list[str] = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            operation_ids.append(operation["operationId"])
            assert operation.get("tags"), f"{method} {path} has no tag"
            if path.startswith("/v1/"):
                assert "500" in operation["responses"], f"{method} {path} declares no 500"
    assert len(operation_ids) == len(set(operation_ids))
    assert "knowledge_bases-create" in operation_ids
    assert "Problem" in spec["components"]["schemas"]


async def test_every_schema_reference_resolves(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    schemas = spec["components"]["schemas"]

    def references(node: object) -> list[str]:
        if isinstance(node, dict):
            found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
            return found + [ref for value in node.values() for ref in references(value)]
        if isinstance(node, list):
            return [ref for value in node for ref in references(value)]
        return []

    refs = set(references(spec))
    prefix = "#/components/schemas/"
    assert f"{prefix}DocumentCreate" in refs  # the hand-written upload body
    assert {ref for ref in refs if not ref.startswith(prefix)} == set()
    assert sorted(ref for ref in refs if ref.removeprefix(prefix) not in schemas) == []
