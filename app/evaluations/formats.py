"""BEIR files as uploaded: queries JSONL and qrels TSV, read into an `EvaluationCreate`."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from pydantic import ValidationError

from app.evaluations.schemas import EvaluationCreate
from app.kit.bodies import invalid_body
from app.kit.errors import ValidationFailed

QRELS_HEADER = ("query-id", "corpus-id", "score")


def _text(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationFailed(f"The {what} file is not UTF-8 text.") from exc


def read_queries(data: bytes) -> list[dict[str, Any]]:
    """One JSON object per line (`_id`, `text`; BEIR's other keys are ignored)."""
    queries = []
    for number, line in enumerate(_text(data, "queries").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError as exc:
            raise ValidationFailed(f"Line {number} of the queries file is not JSON.") from exc
        if not isinstance(entry, dict):
            raise ValidationFailed(f"Line {number} of the queries file is not a JSON object.")
        queries.append(entry)
    return queries


def read_qrels(data: bytes) -> list[dict[str, Any]]:
    """Tab-separated `query-id corpus-id score` rows, BEIR's header line optional; TREC's
    four-column layout (`query-id 0 corpus-id score`) is read too."""
    judgments = []
    rows = csv.reader(io.StringIO(_text(data, "qrels")), delimiter="\t")
    for number, row in enumerate(rows, start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if number == 1 and tuple(c.lower() for c in cells[:3]) == QRELS_HEADER:
            continue
        if len(cells) == 4:
            cells = [cells[0], cells[2], cells[3]]
        if len(cells) != 3:
            raise ValidationFailed(
                f"Line {number} of the qrels file has {len(cells)} columns; expected "
                "query-id, corpus-id, score."
            )
        try:
            score = int(cells[2])
        except ValueError as exc:
            raise ValidationFailed(
                f"Line {number} of the qrels file: the score {cells[2]!r} is not an integer."
            ) from exc
        judgments.append({"query_id": cells[0], "doc_id": cells[1], "score": score})
    return judgments


def from_files(
    queries: bytes, qrels: bytes, *, configurations: str | None, name: str | None
) -> EvaluationCreate:
    body: dict[str, Any] = {"queries": read_queries(queries), "qrels": read_qrels(qrels)}
    if name:
        body["name"] = name
    if configurations:
        try:
            body["configurations"] = json.loads(configurations)
        except ValueError as exc:
            raise ValidationFailed("Form field 'configurations' is not JSON.") from exc
    try:
        return EvaluationCreate.model_validate(body)
    except ValidationError as exc:
        raise invalid_body(exc, "a valid evaluation") from exc
