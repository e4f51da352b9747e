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


async def test_every_error_response_is_a_problem(client: httpx.AsyncClient) -> None:
    """The handlers answer every 4xx and 5xx as problem+json; the document must say so,
    including the 422 FastAPI would otherwise declare with its own HTTPValidationError."""
    spec = (await client.get("/openapi.json")).json()
    assert "HTTPValidationError" not in json.dumps(spec)
    schemas = spec["components"]["schemas"]
    problem_fields = set(schemas["Problem"]["required"])
    checked = 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for code, response in operation["responses"].items():
                if not code.startswith(("4", "5")):
                    continue
                where = f"{method} {path} {code}"
                media_types = list(response.get("content", {}))
                if path.startswith("/compat/dify/"):
                    # Dify's API answers its own error objects beside our problems.
                    assert media_types[0] == "application/problem+json", where
                    assert set(media_types) <= {"application/problem+json", "application/json"}
                else:
                    assert media_types == ["application/problem+json"], where
                ref = response["content"]["application/problem+json"]["schema"]["$ref"]
                declared = schemas[ref.removeprefix("#/components/schemas/")]
                assert problem_fields <= set(declared["required"]), where
                checked += 1
    assert checked > 100


async def test_success_bodies_are_declared(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()

    def schema_of(path: str, method: str, code: str) -> object:
        content = spec["paths"][path][method]["responses"][code]["content"]
        return content["application/json"]["schema"]

    upload = "/v1/knowledge-bases/{kb}/documents"
    assert schema_of(upload, "post", "202") == {"$ref": "#/components/schemas/DocumentRead"}
    assert schema_of("/readyz", "get", "200") == {"$ref": "#/components/schemas/Readiness"}
    not_ready = spec["paths"]["/readyz"]["get"]["responses"]["503"]["content"]
    assert not_ready["application/problem+json"]["schema"]["$ref"].endswith("/NotReady")


async def test_every_success_body_is_typed(client: httpx.AsyncClient) -> None:
    """A generated SDK types what it reads: no 2xx JSON body is a bare object."""
    spec = (await client.get("/openapi.json")).json()

    def bare(schema: dict[str, object]) -> bool:
        if "$ref" in schema or "anyOf" in schema or "oneOf" in schema:
            return False
        if schema.get("type") == "array":
            items = schema.get("items")
            return not isinstance(items, dict) or bare(items)
        return schema.get("type") in (None, "object") and not schema.get("properties")

    untyped = [
        (method, path, code)
        for path, operations in spec["paths"].items()
        for method, operation in operations.items()
        for code, response in operation["responses"].items()
        if code.startswith("2")
        and "application/json" in response.get("content", {})
        and bare(response["content"]["application/json"]["schema"])
    ]
    assert untyped == []
    node = spec["paths"]["/v1/knowledge-bases/{kb}/documents/{doc}/nodes/{node_id}"]["get"]
    choices = node["responses"]["200"]["content"]["application/json"]["schema"]["oneOf"]
    assert {"$ref": "#/components/schemas/SectionNode"} in choices
