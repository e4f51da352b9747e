"""Liveness and readiness probes."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import text

from app.db.engine import Database
from app.db.migrate import current_revision, head_revision

router = APIRouter(tags=["health"])


class Liveness(BaseModel):
    status: Literal["ok"]


class Check(BaseModel):
    name: str
    ok: bool
    detail: str


class Readiness(BaseModel):
    status: Literal["ready", "unavailable"]
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
    responses={503: {"model": Readiness, "description": "Not ready, with the failing checks"}},
)
async def readyz(request: Request) -> JSONResponse:
    checks = await _database_checks(request.app.state.database)
    for probe in request.app.state.readiness_probes:
        checks.append(await probe())
    ready = all(check.ok for check in checks)
    body = Readiness(status="ready" if ready else "unavailable", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503)
