"""Dify's External Knowledge API at `/compat/dify/retrieval`: an Arbor knowledge base as a Dify
external knowledge base.

Dify sends its API key as a bearer token; here that is an Arbor key, and the search runs as
that key (`POST /v1/knowledge-bases/{kb}/search`, in-process, as the agent tools do), so access
lists, key limits and the audit log hold. Errors are Dify's: `{"error_code", "error_msg"}`,
1001 and 1002 with 403, 2001 with 404. A body that does not fit the spec is a 422 problem.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.auth.dependencies import bearer, get_caller
from app.auth.mode import AuthMode
from app.compat.schemas import (
    DifyCondition,
    DifyError,
    DifyMetadataCondition,
    DifyRecord,
    DifyRetrievalRequest,
    DifyRetrievalResponse,
)
from app.db.dependencies import replica_read
from app.kit.bodies import require_json_body
from app.kit.errors import Forbidden, NotFound, Unauthorized
from app.kit.problems import ProblemJSONResponse, problem_responses
from app.tools.dispatch import InProcess, segment

BAD_HEADER = 1001
AUTH_FAILED = 1002
NO_KNOWLEDGE = 2001

# Dify operator -> the filter language's (`$not` wraps the negated ones).
_OPERATORS: dict[str, tuple[str, bool]] = {
    "contains": ("$contains", False),
    "not contains": ("$contains", True),
    # Narrowed in SQL by `$contains`, then checked exactly (the filter language has no prefix).
    "start with": ("$contains", False),
    "end with": ("$contains", False),
    "is": ("$eq", False),
    "is not": ("$ne", False),
    "in": ("$in", False),
    "not in": ("$nin", False),
    "=": ("$eq", False),
    "≠": ("$ne", False),
    ">": ("$gt", False),
    "<": ("$lt", False),
    "≥": ("$gte", False),
    "≤": ("$lte", False),
    "before": ("$lt", False),
    "after": ("$gt", False),
}
_NUMERIC = frozenset({"=", "≠", ">", "<", "≥", "≤"})

router = APIRouter(tags=["compat"])


def _dify_error(status: int, code: int, message: str) -> JSONResponse:
    return JSONResponse(
        DifyError(error_code=code, error_msg=message).model_dump(), status_code=status
    )


def _number(value: Any) -> Any:
    """Dify sends numbers for numeric comparisons as text at times; compare them as numbers."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() else number
    return value


def _condition(condition: DifyCondition) -> dict[str, Any]:
    names = condition.name if isinstance(condition.name, list) else [condition.name]
    operator = condition.comparison_operator
    parts: list[dict[str, Any]] = []
    for name in names:
        field = f"metadata.{name}"
        if operator in ("empty", "not empty"):
            parts.append({field: {"$exists": operator == "not empty"}})
            continue
        op, negated = _OPERATORS[operator]
        value = _number(condition.value) if operator in _NUMERIC else condition.value
        if op in ("$in", "$nin") and not isinstance(value, list):
            value = [value]
        test: dict[str, Any] = {op: value}
        parts.append({field: {"$not": test} if negated else test})
    return parts[0] if len(parts) == 1 else {"$and": parts}


def filter_of(metadata: DifyMetadataCondition | None) -> dict[str, Any] | None:
    """Dify's metadata_condition in Arbor's filter language."""
    if metadata is None or not metadata.conditions:
        return None
    key = "$and" if metadata.logical_operator == "and" else "$or"
    return {key: [_condition(condition) for condition in metadata.conditions]}


def _exact(metadata: DifyMetadataCondition | None, hit_metadata: dict[str, Any]) -> bool:
    """The prefix and suffix tests `$contains` only narrowed down."""
    if metadata is None:
        return True
    results = []
    for condition in metadata.conditions:
        if condition.comparison_operator not in ("start with", "end with"):
            results.append(True)
            continue
        names = condition.name if isinstance(condition.name, list) else [condition.name]
        needle = str(condition.value or "").lower()
        ok = True
        for name in names:
            value = str(hit_metadata.get(name, "")).lower()
            ok = ok and (
                value.startswith(needle)
                if condition.comparison_operator == "start with"
                else value.endswith(needle)
            )
        results.append(ok)
    return all(results) if metadata.logical_operator == "and" else any(results)


def _record(hit: dict[str, Any]) -> DifyRecord:
    metadata = dict(hit.get("metadata") or {})
    metadata.update(
        doc_id=hit["doc_id"],
        chunk_id=hit["chunk_id"],
        knowledge_base_id=hit["knowledge_base_id"],
        section_path=hit["section_titles"],
        page_start=hit.get("page_start"),
        page_end=hit.get("page_end"),
    )
    return DifyRecord(
        content=hit["text"], score=hit["score"], title=hit["doc_title"], metadata=metadata
    )


@router.post(
    "/compat/dify/retrieval",
    operation_id="compat-dify_retrieval",
    summary="Dify External Knowledge API: retrieve chunks of a knowledge base for Dify",
    description="Register `<arbor>/compat/dify` as a Dify external knowledge API with an Arbor "
    "key; the external knowledge ID is a knowledge base's id or name.",
    response_model=DifyRetrievalResponse,
    responses={
        403: {"model": DifyError, "description": "1001: bad Authorization header; 1002: refused"},
        404: {"model": DifyError, "description": "2001: no such knowledge base"},
        **problem_responses(422, 429, 503),
    },
    dependencies=[require_json_body],
)
@replica_read
async def retrieval(request: Request, data: DifyRetrievalRequest) -> Any:
    mode: AuthMode = request.app.state.auth_mode
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if mode.enabled and (scheme.lower() != "bearer" or not token.strip()):
        return _dify_error(
            403, BAD_HEADER, "Invalid Authorization header format. Expected 'Bearer <api-key>'."
        )
    try:
        caller = await get_caller(request, await bearer(request))
    except (Unauthorized, Forbidden, NotFound):
        return _dify_error(403, AUTH_FAILED, "Authorization failed.")
    # The search below is audited as what it is; this request would be a second record of it.
    request.scope["state"].pop("caller", None)
    found = await InProcess(request.app, caller).request(
        "POST",
        f"/v1/knowledge-bases/{segment(data.knowledge_id)}/search",
        json={
            "query": data.query,
            "top_k": data.retrieval_setting.top_k,
            "score_threshold": data.retrieval_setting.score_threshold or None,
            "filter": filter_of(data.metadata_condition),
        },
    )
    if found.status_code == 404 and found.json().get("detail", "").startswith("No knowledge base"):
        return _dify_error(404, NO_KNOWLEDGE, "The knowledge does not exist.")
    if found.status_code == 403:
        return _dify_error(403, AUTH_FAILED, "Authorization failed.")
    if found.status_code >= 400:
        return ProblemJSONResponse(
            found.json(), status_code=found.status_code, media_type=found.headers["content-type"]
        )
    hits = found.json()["hits"]
    return DifyRetrievalResponse(
        records=[_record(hit) for hit in hits if _exact(data.metadata_condition, hit["metadata"])]
    )
