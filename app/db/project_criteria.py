"""Every ORM statement of a session scoped to a project names the project.

Row-level security already keeps other projects' rows out of a scoped session (its role sees
its project's alone), so the condition changes no result. It is there for a database sharded
by project (Citus, docs/scaling.md), which sends a statement to the one shard holding a
project only when the statement itself says which project: the policy's function does not
count. With `ARBOR_SQL_NAMES_PROJECT` on, the ORM's SELECT, UPDATE and DELETE statements of
a scoped transaction, `session.get` included, get `project_id = <the scope's project>` on
every tenant table they name (`InProject`), in joins and subqueries too; Core statements over
tables name it themselves (app/search). Off (the default on one Postgres), the hook does
nothing: its condition cost a simple read about 0.3 ms and changed no result.
"""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria

from app.db.tenancy import scope_of
from app.models.base import InProject

# Set in a session's info by a database with `sql_names_project` (app/db/engine.py).
NAMES_PROJECT = "arbor_names_project"


def _in_project(state: ORMExecuteState) -> None:
    if not state.session.info.get(NAMES_PROJECT):
        return
    if not (state.is_select or state.is_update or state.is_delete):
        return
    scope = scope_of(state.session)
    if scope is None:
        return  # the service's own work (the job queue, key lookups): no one project
    project_id = scope.project_id
    state.statement = state.statement.options(
        with_loader_criteria(
            InProject,
            lambda model: model.project_id == project_id,
            include_aliases=True,
        )
    )


def name_projects_in_orm_statements() -> None:
    """Install the hook on every session (once; installing it again changes nothing)."""
    if not event.contains(Session, "do_orm_execute", _in_project):
        event.listen(Session, "do_orm_execute", _in_project)
