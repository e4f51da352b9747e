"""Liveness and readiness probes."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import text

from app.db.engine import Database
from app.db.migrate import current_revision, head_revision
from app.kit.problems import PROBLEM_MEDIA_TYPE, Problem, problem_response

router = APIRouter(tags=["health"])


class Liveness(BaseModel):
    status: Literal["ok"]


class Check(BaseModel):
    name: str
    ok: bool
    detail: str


class Readiness(BaseModel):
    status: Literal["ready"]
    checks: list[Check]


class NotReady(Problem):
    """The 503 of /readyz: a problem whose `checks` (an extension member) say what failed."""

    checks: list[Check]


@router.get("/healthz", operation_id="health-live", summary="The process is alive")
async def healthz() -> Liveness:
    return Liveness(status="ok")


async def _database_checks(database: Database) -> list[Check]:
    try:
        async with database.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception as exc:  # any failure to connect means "not ready", with a reason
        # The driver's error (refused, no socket) rather than the DatabaseUnavailable over it.
        reason = type(exc.__cause__ or exc).__name__
        return [Check(name="database", ok=False, detail=f"unreachable: {reason}")]
    checks = [Check(name="database", ok=True, detail="reachable")]
    current, head = await current_revision(database.engine), head_revision()
    checks.append(
        Check(
            name="migrations",
            ok=current == head,
            detail=f"at {current}" if current == head else f"at {current}, head is {head}",
        )
    )
    return checks


@router.get(
    "/readyz",
    operation_id="health-ready",
    summary="Database reachable, migrations at head, embedder loaded",
    response_model=Readiness,
    responses={
        503: {
            "model": NotReady,
            "description": "Not ready, with the failing checks",
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/NotReady"}}},
        }
    },
)
async def readyz(request: Request) -> JSONResponse:
    checks = await _database_checks(request.app.state.database)
    for probe in request.app.state.readiness_probes:
        checks.append(await probe())
    failing = [check for check in checks if not check.ok]
    if not failing:
        return JSONResponse(Readiness(status="ready", checks=checks).model_dump())
    return problem_response(
        503,
        "not-ready",
        "Not ready",
        "Not ready: " + "; ".join(f"{check.name} {check.detail}" for check in failing) + ".",
        instance=request.url.path,
        extra={"checks": [check.model_dump() for check in checks]},
    )
