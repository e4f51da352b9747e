"""A parsed document's tree as the store step writes it to the `tree` column: UTF-8 JSON made
by pydantic's serialiser, streamed to Postgres, which parses it into JSONB.

Ingestion's peak memory is the tree: its nodes, then its JSON while they are still held
(about six times the text: every sentence's text is in its paragraph's too). Dumping to Python
dicts for the driver to serialise again held it three more times (a dict per node, about
seven times the text; the JSON; its encoded copy). Serialising the whole tree at once held
the JSON twice or more: the serialiser's buffer, grown by doubling, and the bytes copied from
it. Written node by node, the JSON is never whole: each piece is deflated as it comes (zlib's
fastest level; about 1.5 bytes per character of text for abstracts, where the JSON is 5 to 7,
since a paragraph repeats its sentences within the compressor's window). The pipeline makes it
right after chunking, so that a document waiting for its vectors holds its deflated JSON, not
its tree. Sent as a statement's parameter, the driver would copy it whole into its send
buffer, in memory that the freed tree rarely gives back; COPY streams it instead, inflated in
slices (docs/benchmarks.md, "Memory per upload").
"""

from __future__ import annotations

import uuid
import zlib
from collections.abc import AsyncIterator, Iterator, Mapping

from pydantic import BaseModel
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.driver import session_driver
from app.ingestion.parsers import ParsedDocument
from app.ingestion.tree import ParagraphNode, SentenceNode

_ROOT = {"root"}
# JSON escapes every control character inside its strings, and has none outside them.
_DELIMITER = "\x02"
_QUOTE = "\x01"
_SLICE = 1 << 20
_CHILDREN = {"children"}


class TreeJson:
    """A tree's UTF-8 JSON, held deflated."""

    __slots__ = ("_deflated",)

    def __init__(self, deflated: bytearray) -> None:
        self._deflated = deflated

    def slices(self, size: int = _SLICE) -> Iterator[bytes]:
        """The JSON in order, in pieces of at most `size` bytes."""
        inflater = zlib.decompressobj()
        piece = inflater.decompress(self._deflated, size)
        while piece:
            yield piece
            piece = inflater.decompress(inflater.unconsumed_tail, size)

    def __bytes__(self) -> bytes:
        return zlib.decompress(self._deflated)

    @property
    def deflated_size(self) -> int:
        return len(self._deflated)


class _Deflating:
    """JSON pieces deflated into one buffer as they come."""

    def __init__(self) -> None:
        self._deflater = zlib.compressobj(1)
        self.out = bytearray()

    def __iadd__(self, piece: bytes | memoryview) -> _Deflating:
        self.out += self._deflater.compress(piece)
        return self

    def close(self) -> TreeJson:
        self.out += self._deflater.flush()
        return TreeJson(self.out)


def tree_json(parsed: ParsedDocument) -> TreeJson:
    """`parsed` as JSON, the same object `parsed.model_dump_json()` makes (keys may come in
    another order, which JSONB does not keep), written in pieces of a paragraph at most."""
    out = _Deflating()
    _open(out, _to_json(parsed, exclude=_ROOT))
    out += b'"root":'
    _write_node(out, parsed.root)
    out += b"}"
    return out.close()


async def write_trees(
    session: AsyncSession, project_id: uuid.UUID, trees: Mapping[uuid.UUID, TreeJson]
) -> None:
    """Set each document's `tree` (documents of one project) to its JSON, in the session's
    transaction.

    The JSON goes through COPY into a staging table, in CSV with a delimiter and a quote
    character JSON never holds unescaped (control characters), so that no byte of it needs
    escaping; one UPDATE then moves it to the documents.
    """
    if not trees:
        return
    driver = await session_driver(session)
    await driver.execute(
        "CREATE TEMP TABLE IF NOT EXISTS document_trees_stage (document_id uuid, tree jsonb) "
        "ON COMMIT DELETE ROWS"
    )
    await driver.execute("TRUNCATE document_trees_stage")
    await driver.copy_to_table(
        "document_trees_stage",
        source=_csv_rows(trees),
        columns=["document_id", "tree"],
        format="csv",
        delimiter=_DELIMITER,
        quote=_QUOTE,
    )
    await session.execute(
        text(
            "UPDATE documents AS d SET tree = s.tree "
            "FROM document_trees_stage AS s WHERE d.id = s.document_id AND d.project_id = :project"
        ),
        {"project": project_id},
    )


async def _csv_rows(trees: Mapping[uuid.UUID, TreeJson]) -> AsyncIterator[bytes]:
    for document_id, json in trees.items():
        yield f"{document_id}{_DELIMITER}".encode()
        for piece in json.slices():
            yield piece
        yield b"\n"


def _write_node(out: _Deflating, node: BaseModel) -> None:
    children = getattr(node, "children", None)
    # A paragraph and its sentences are one small piece; sections and the root can be most
    # of the document.
    if not children or isinstance(node, ParagraphNode | SentenceNode):
        out += _to_json(node)
        return
    _open(out, _to_json(node, exclude=_CHILDREN))
    out += b'"children":['
    for index, child in enumerate(children):
        if index:
            out += b","
        _write_node(out, child)
    out += b"]}"


def _open(out: _Deflating, head: bytes) -> None:
    """`head`, a JSON object, without its closing brace and ready for one more key."""
    # A view, not a slice: the root's head holds the whole text twice (the document's and the
    # root node's), and a slice would copy it.
    with memoryview(head) as view:
        out += view[:-1]
    if len(head) > 2:
        out += b","


def _to_json(model: BaseModel, *, exclude: set[str] | None = None) -> bytes:
    return model.__pydantic_serializer__.to_json(model, exclude=exclude)
