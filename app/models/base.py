"""Declarative base with a constraint naming convention and common column helpers.

The migrations, not these models, create the schema. In the database every key of a
tenant's table ends with `project_id` (migration 0034, for Citus: docs/scaling.md); the
models keep `id` as the mapper's key and their foreign keys on `id`, which is what the ORM
needs to identify and load rows (`session.get(Model, id)`).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import cast

from sqlalchemy import DateTime, MetaData, Table, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def table_of(model: type[Base]) -> Table:
    """The model's table, for Core statements (a declarative model's `__table__` is typed as
    any FROM clause, though it is always its Table)."""
    return cast(Table, model.__table__)


class InProject:
    """A tenant's table: every row belongs to one project (`project_id`). Each ORM statement
    of a session scoped to a project names it (app/db/project_criteria.py), whose condition
    is written once against this column; each model declares its own, which replaces it."""

    project_id: Mapped[uuid.UUID] = mapped_column()


class UUIDPrimaryKey:
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)


class Timestamps:
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )
