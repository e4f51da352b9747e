"""How long migration 0034 (keys that carry the project) holds a database of a given size.

On an embedded server: the schema at 0033, then `--knowledge-bases` knowledge bases with
`--documents` documents and `--chunks` chunks in all (short texts, no vectors: the migration
rebuilds keys and checks foreign keys, and touches no vector or text index), written by SQL
as the owner; then `alembic upgrade 0034` timed, and `downgrade 0033` after it.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import asyncpg
from alembic import command

from app.db.embedded import EmbeddedPostgres
from app.db.migrate import alembic_config
from app.db.urls import asyncpg_dsn

FILL = """
WITH project AS (INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id),
kbs AS (
    INSERT INTO knowledge_bases (id, project_id, name, title, embedding_provider,
                                 embedding_model, embedding_dimensions, embedding_variant)
    SELECT gen_random_uuid(), project.id, 'kb-' || n, 'kb ' || n, 'local', 'bench', 384, 'int8'
    FROM project, generate_series(1, $1) AS n RETURNING id, project_id
)
SELECT count(*) FROM kbs
"""
DOCUMENTS = """
INSERT INTO documents (id, project_id, knowledge_base_id, status, title)
SELECT gen_random_uuid(), kb.project_id, kb.id, 'ready', 'document ' || n
FROM (SELECT id, project_id, row_number() OVER () - 1 AS i FROM knowledge_bases) kb
JOIN generate_series(0, $1 - 1) AS n ON n % $2 = kb.i
"""
CHUNKS = """
INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, chunk_index, text,
                    text_sha256)
SELECT gen_random_uuid(), d.project_id, d.knowledge_base_id, d.id, n,
       'roots hold the soil ' || n, md5(n::text)
FROM documents d CROSS JOIN generate_series(1, $1) AS n
"""


async def fill(url: str, knowledge_bases: int, documents: int, chunks: int) -> None:
    connection = await asyncpg.connect(asyncpg_dsn(url))
    try:
        await connection.execute("SET synchronous_commit = off")
        await connection.fetchval(FILL, knowledge_bases)
        await connection.execute(DOCUMENTS, documents, knowledge_bases)
        await connection.execute(CHUNKS, max(1, chunks // documents))
        await connection.execute("VACUUM ANALYZE")
        counted = await connection.fetchval("SELECT count(*) FROM chunks")
        print(f"{knowledge_bases} knowledge bases, {documents} documents, {counted} chunks")
    finally:
        await connection.close()


def timed(step: str, action: Callable[[], None]) -> None:
    started = time.perf_counter()
    action()
    print(f"| {step} | {time.perf_counter() - started:.1f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--knowledge-bases", type=int, default=10)
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--chunks", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        server = EmbeddedPostgres(Path(root) / "pg", delete_on_close=True)
        url = server.start()
        try:
            config = alembic_config(url)
            command.upgrade(config, "0033")
            asyncio.run(fill(url, args.knowledge_bases, args.documents, args.chunks))
            print("| step | time |\n| --- | --- |")
            timed("upgrade to 0034", lambda: command.upgrade(config, "0034"))
            timed("downgrade to 0033", lambda: command.downgrade(config, "0033"))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
