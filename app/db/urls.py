"""Normalise Postgres URLs for the async (asyncpg) and sync (alembic offline) drivers."""

from __future__ import annotations

from sqlalchemy.engine import URL, make_url


def async_url(url: str) -> URL:
    """Any postgres:// or postgresql[+driver]:// URL, rewritten for asyncpg."""
    parsed = make_url(url.replace("postgres://", "postgresql://", 1))
    return parsed.set(drivername="postgresql+asyncpg")


def asyncpg_dsn(url: str) -> str:
    """A plain libpq-style DSN that asyncpg.connect() accepts."""
    return async_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
