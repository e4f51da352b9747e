"""HTTP routes for function calling: the tools as OpenAI function definitions, and one call."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Request
from fastapi.responses import JSONResponse

from app.auth.callers import Scope
from app.auth.dependencies import CallerDep, require_scope
from app.kit.bodies import require_json_body
from app.kit.problems import PROBLEM_MEDIA_TYPE, ProblemJSONResponse, problem_responses
from app.tools import registry
from app.tools.dispatch import InProcess
from app.tools.schemas import ToolCallResult, ToolList

router = APIRouter(
    prefix="/v1/tools",
    tags=["tools"],
    dependencies=[require_scope(Scope.READ)],
    responses=problem_responses(401, 403, 429),
)


@router.get(
    "",
    operation_id="tools-list",
    summary="The agent tools as OpenAI function-calling definitions",
    description="Each `parameters` is the JSON Schema of the pydantic model that validates "
    "`POST /v1/tools/{name}` (and the MCP server's tool of the same name).",
)
async def list_tools() -> ToolList:
    return ToolList(tools=registry.definitions())


@router.post(
    "/{name}",
    operation_id="tools-call",
    response_model=ToolCallResult,
    summary="Run one tool call with the caller's rights",
    description="The body is the call's `arguments` object. The tool makes the REST calls it "
    "stands for as this key (scopes, knowledge-base limits, principals, delegation): a search "
    "returns exactly what `POST /v1/search` returns to it, plus `citations`. An error of that "
    "call is answered as it is, with its status.",
    responses=problem_responses(404, 422, 503),
    dependencies=[require_json_body],
)
async def call_tool(
    request: Request,
    caller: CallerDep,
    name: Annotated[str, Path(max_length=100)],
    arguments: Annotated[dict[str, Any], Body()],
) -> ToolCallResult | JSONResponse:
    # The REST calls the tool makes are audited as what they are (a search with its hits);
    # recording this request too would count each call twice.
    request.scope["state"].pop("caller", None)
    try:
        return await registry.call(InProcess(request.app, caller), name, arguments)
    except registry.ToolFailed as failed:
        return ProblemJSONResponse(
            failed.problem, status_code=failed.status, media_type=PROBLEM_MEDIA_TYPE
        )
