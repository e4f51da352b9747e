"""Run Alembic migrations from code (CLI, tests); tell whether the schema is at head."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine


def _project_root() -> Path:
    """The checkout (editable install), else the working directory (the Docker image's /app)."""
    checkout = Path(__file__).resolve().parents[2]
    return checkout if (checkout / "alembic.ini").exists() else Path.cwd()


ROOT = _project_root()


def alembic_config(database_url: str) -> Config:
    """An Alembic config that points at this checkout's migrations and the given database."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def upgrade_to_head(database_url: str) -> None:
    """Apply every pending migration (blocking: it runs its own event loop)."""
    command.upgrade(alembic_config(database_url), "head")


async def upgrade_to_head_async(database_url: str) -> None:
    """Same as upgrade_to_head, from inside a running event loop."""
    await asyncio.to_thread(upgrade_to_head, database_url)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("unused")).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None when it has never been migrated."""
    async with engine.connect() as connection:
        return await connection.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_revision()
        )
