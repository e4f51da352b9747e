"""Authentication: from a bearer token and headers to a Caller, and the first admin key."""

from __future__ import annotations

import logging
import os
import uuid
from datetime import UTC, datetime
from pathlib import Path
from weakref import WeakKeyDictionary

from sqlalchemy import text

from app.auth import keys
from app.auth.callers import Caller, Scope, granted
from app.config import Settings
from app.db.engine import Database
from app.kit.errors import Forbidden, NotFound, Unauthorized
from app.models import DEFAULT_PROJECT_NAME, ApiKey, Project
from app.projects import repository

logger = logging.getLogger(__name__)

ADMIN_KEY_ACTOR = "ARBOR_ADMIN_KEY"
ANONYMOUS_ACTOR = "anonymous"
BOOTSTRAP_KEY_NAME = "bootstrap-admin"
BOOTSTRAP_LOCK = 0x4172626F72  # "Arbor"
MAX_HEADER_PRINCIPALS = 100
MAX_PRINCIPAL_CHARS = 256


def unauthorized(detail: str, *, error: str | None = None) -> Unauthorized:
    challenge = "Bearer" if error is None else f'Bearer error="{error}"'
    return Unauthorized(detail, extra={"headers": {"WWW-Authenticate": challenge}})


INVALID_KEY = "The API key is not valid: unknown, expired or revoked."


async def authenticate(
    database: Database,
    settings: Settings,
    *,
    enabled: bool,
    token: str | None,
    project_ref: str | None,
    principals_header: str | None,
) -> Caller:
    """The caller a request's credentials stand for; 401, 403 or 404 otherwise."""
    if not enabled:
        caller = await _anonymous(database, project_ref)
    elif token is None:
        raise unauthorized("This endpoint needs an API key: `Authorization: Bearer <key>`.")
    elif settings.admin_key is not None and keys.same_secret(
        token, settings.admin_key.get_secret_value()
    ):
        caller = await _configured_admin(database, project_ref)
    else:
        caller = await _api_key(database, token, project_ref)
    if principals_header is not None:
        if not caller.delegate:
            raise Forbidden("Only delegate keys may act for others with X-Arbor-Principals.")
        caller = _with_principals(caller, parse_principals(principals_header))
    return caller


def parse_principals(header: str) -> frozenset[str]:
    """`X-Arbor-Principals: user:ann, group:hr` -> {"user:ann", "group:hr"}; empty: none."""
    found = frozenset(part.strip() for part in header.split(",") if part.strip())
    if len(found) > MAX_HEADER_PRINCIPALS or any(
        len(p) > MAX_PRINCIPAL_CHARS or any(c.isspace() for c in p) for p in found
    ):
        raise Forbidden(
            f"X-Arbor-Principals takes up to {MAX_HEADER_PRINCIPALS} comma-separated principals "
            f"of at most {MAX_PRINCIPAL_CHARS} characters without spaces."
        )
    return found


def _with_principals(caller: Caller, principals: frozenset[str]) -> Caller:
    return Caller(
        project=caller.project,
        actor=caller.actor,
        api_key_id=caller.api_key_id,
        scopes=caller.scopes,
        knowledge_bases=caller.knowledge_bases,
        principals=principals,
        delegate=caller.delegate,
        instance_admin=caller.instance_admin,
    )


# The projects that references (names, ids) named, per database. The API neither renames nor
# deletes a project (app/projects/router.py), so what a reference found stays true: a request
# of the admin (or of everyone, without keys) no longer spends a transaction of its own on
# it. A reference that found nothing is asked again, as the project may be created since.
MAX_KNOWN_PROJECTS = 1000
_known_projects: WeakKeyDictionary[Database, dict[str, Project]] = WeakKeyDictionary()


async def _instance_project(database: Database, project_ref: str | None) -> Project:
    ref = project_ref or DEFAULT_PROJECT_NAME
    known = _known_projects.setdefault(database, {})
    project = known.get(ref)
    if project is not None:
        return project
    async with database.transaction() as session:
        project = await repository.get_project(session, ref)
    if project is None:
        raise NotFound(f"No project {project_ref!r}.")
    if len(known) < MAX_KNOWN_PROJECTS:
        known[ref] = project
    return project


async def _anonymous(database: Database, project_ref: str | None) -> Caller:
    return Caller(
        project=await _instance_project(database, project_ref),
        actor=ANONYMOUS_ACTOR,
        api_key_id=None,
        scopes=granted([Scope.ADMIN]),
        knowledge_bases=None,
        principals=None,
        delegate=True,
        instance_admin=True,
    )


async def _configured_admin(database: Database, project_ref: str | None) -> Caller:
    return Caller(
        project=await _instance_project(database, project_ref),
        actor=ADMIN_KEY_ACTOR,
        api_key_id=None,
        scopes=granted([Scope.ADMIN]),
        knowledge_bases=None,
        principals=None,
        delegate=True,
        instance_admin=True,
    )


def is_active(key: ApiKey, now: datetime) -> bool:
    return key.revoked_at is None and (key.expires_at is None or key.expires_at > now)


# The keys that requests presented, by prefix, per database, with their projects. A key row
# never changes once created except for its revocation (the API has no update), so a known key
# skips the lookup's transaction; whether it is still live is asked on every request, in one
# statement outside any transaction, so a revocation by any process holds from the next
# request on.
MAX_KNOWN_KEYS = 10_000
_known_keys: WeakKeyDictionary[Database, dict[str, tuple[ApiKey, Project]]] = WeakKeyDictionary()
_KEY_IS_LIVE = text(
    "SELECT 1 FROM api_keys WHERE id = :id AND revoked_at IS NULL "
    "AND (expires_at IS NULL OR expires_at > now())"
)


async def _still_live(database: Database, key: ApiKey) -> bool:
    # Through SQLAlchemy rather than the bare driver (some 0.1 ms less CPU): a connection lost
    # since it was pooled then discards the pool's others too, and answers 503.
    async with database.engine.connect() as connection:
        connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
        return await connection.scalar(_KEY_IS_LIVE, {"id": key.id}) is not None


async def _key_and_project(
    database: Database, prefix: str, token: str
) -> tuple[ApiKey, Project] | None:
    known = _known_keys.setdefault(database, {})
    found = known.get(prefix)
    if found is not None:
        if not keys.matches(token, found[0].key_sha256):
            return None  # a wrong secret: no statement for it
        if await _still_live(database, found[0]):
            return found
        del known[prefix]
        return None
    async with database.transaction() as session:
        found = await repository.key_with_project(session, prefix)
    if found is not None and is_active(found[0], datetime.now(UTC)):
        if len(known) >= MAX_KNOWN_KEYS:
            known.clear()
        known[prefix] = found
    return found


async def _api_key(database: Database, token: str, project_ref: str | None) -> Caller:
    prefix = keys.prefix_of(token)
    if prefix is None:
        raise unauthorized(INVALID_KEY, error="invalid_token")
    found = await _key_and_project(database, prefix, token)
    if found is None:
        raise unauthorized(INVALID_KEY, error="invalid_token")
    key, project = found
    limited = None if key.knowledge_base_ids is None else frozenset(key.knowledge_base_ids)
    if not keys.matches(token, key.key_sha256) or not is_active(key, datetime.now(UTC)):
        raise unauthorized(INVALID_KEY, error="invalid_token")
    scopes = granted(key.scopes)
    instance_admin = Scope.ADMIN in scopes and project.name == DEFAULT_PROJECT_NAME
    if project_ref is not None and project_ref not in (project.name, str(project.id)):
        if not instance_admin:
            # The same answer as for a project that does not exist.
            raise NotFound(f"No project {project_ref!r}.")
        project = await _instance_project(database, project_ref)
    return Caller(
        project=project,
        actor=key.name,
        api_key_id=key.id,
        scopes=scopes,
        knowledge_bases=limited,
        principals=None if Scope.ADMIN in scopes else frozenset(key.principals),
        delegate=key.delegate,
        instance_admin=instance_admin,
    )


async def ensure_bootstrap_key(database: Database, settings: Settings) -> Path | None:
    """With keys required and no ARBOR_ADMIN_KEY: create a first admin key if none exists.

    The key is written to a 0600 file and logged once; only its hash is stored.
    """
    async with database.transaction() as session:
        # Two processes starting together create one key between them.
        await session.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": BOOTSTRAP_LOCK})
        project = await repository.get_project(session, DEFAULT_PROJECT_NAME)
        if project is None:
            raise RuntimeError("The default project is missing: run the migrations.")
        if await repository.has_active_admin_key(session, project.id):
            return None
        secret, prefix = keys.generate()
        session.add(
            ApiKey(
                id=uuid.uuid4(),
                project_id=project.id,
                name=BOOTSTRAP_KEY_NAME,
                prefix=prefix,
                key_sha256=keys.digest(secret),
                scopes=[Scope.ADMIN.value],
                knowledge_base_ids=None,
                principals=[],
                delegate=True,
                created_by="bootstrap",
            )
        )
        path = settings.bootstrap_key_file
        write_secret_file(path, secret)
    logger.warning(
        "Created the first admin key (shown once, also in %s, mode 0600): %s", path, secret
    )
    return path


def write_secret_file(path: Path, secret: str) -> None:
    """Write a secret readable by this user only (created 0600, never world-readable)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(secret + "\n")
