"""Who is calling: the project a request acts in, what it may do, which documents it reads."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from app.models import Project


class Scope(StrEnum):
    READ = "read"
    WRITE = "write"
    ADMIN = "admin"


# Each scope includes the ones before it: write may read, admin may read and write.
_IMPLIES = {
    Scope.READ: (Scope.READ,),
    Scope.WRITE: (Scope.READ, Scope.WRITE),
    Scope.ADMIN: (Scope.READ, Scope.WRITE, Scope.ADMIN),
}


def granted(scopes: Iterable[str]) -> frozenset[Scope]:
    """Everything a list of stored scopes allows (unknown names allow nothing)."""
    allowed: set[Scope] = set()
    for name in scopes:
        if name in Scope.__members__.values():
            allowed.update(_IMPLIES[Scope(name)])
    return frozenset(allowed)


@dataclass(frozen=True, slots=True, eq=False)
class Caller:
    """An authenticated caller, resolved once per request."""

    project: Project
    actor: str
    api_key_id: uuid.UUID | None
    scopes: frozenset[Scope]
    # None: every knowledge base of the project.
    knowledge_bases: frozenset[uuid.UUID] | None
    # None: reads every document (admins); otherwise documents whose access names one of these.
    principals: frozenset[str] | None
    delegate: bool
    # Admins of the `default` project administer the instance: projects, and any project's keys.
    instance_admin: bool

    def allows(self, scope: Scope) -> bool:
        return scope in self.scopes

    @property
    def rate_limit_key(self) -> str:
        return str(self.api_key_id) if self.api_key_id is not None else self.actor
