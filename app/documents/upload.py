"""Reading an upload: size-limited streaming, multipart or JSON, and the checks done at once."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from pydantic import ValidationError
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from app.documents.schemas import (
    DocumentBatchCreate,
    DocumentCreate,
    DocumentFields,
    DocumentFromUrl,
)
from app.ingestion.detect import detect_format
from app.kit import nesting
from app.kit.bodies import invalid_body, limited_stream, read_json_model
from app.kit.errors import BadRequest, UnprocessableDocument, ValidationFailed

TEXT_FORMATS = frozenset({"text", "markdown", "csv", "html", "json", "jsonl"})
MAX_FORM_FIELD_BYTES = 1024 * 1024


@dataclass
class Upload:
    """What the client sent, before any parsing."""

    data: bytes
    filename: str | None = None
    content_type: str | None = None
    format: str | None = None
    title: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    source_uri: str | None = None
    external_id: str | None = None
    chunking: dict[str, Any] | None = None
    # {"principals": [...]} or None (readable by the whole project); see app/auth/acl.py.
    access: dict[str, Any] | None = None
    # A JSON upload's `data` is the UTF-8 of its `text` field: text by construction.
    is_text: bool = False
    # Form fields a route reads besides these (`read_multipart(also=...)`), those sent only
    # (an empty one as "").
    also: dict[str, str] = field(default_factory=dict)
    # A JSON upload of a URL: `data` is empty until `app/documents/from_url.py` fetches it.
    url: str | None = None


async def read_json(request: Request, limit: int) -> Upload:
    """A JSON upload: text (DocumentCreate), or a URL to fetch (DocumentFromUrl)."""
    body = b"".join([piece async for piece in limited_stream(request, limit)])
    try:
        if _names_url(body):
            return _url_upload(DocumentFromUrl.model_validate_json(body))
        return _upload_of(DocumentCreate.model_validate_json(body))
    except ValidationError as exc:
        raise invalid_body(exc, "a valid document") from exc


def _names_url(body: bytes) -> bool:
    """Whether the body is an object with a `url` key. Parsed only when the bytes hold `"url"`
    (a text upload's own quotes are escaped, so its text rarely does)."""
    if b'"url"' not in body:
        return False
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return False  # the model's parse reports it
    return isinstance(value, dict) and "url" in value


def _url_upload(data: DocumentFromUrl) -> Upload:
    return Upload(data=b"", url=data.url, **_fields_of(data))


async def read_json_batch(request: Request, limit: int) -> list[Upload]:
    """A batch body (`{"documents": [...]}`), within the same size limit as one upload."""
    batch = await read_json_model(
        request, DocumentBatchCreate, limit=limit, what="a valid batch of documents"
    )
    return [_upload_of(data) for data in batch.documents]


def _upload_of(data: DocumentCreate) -> Upload:
    return Upload(
        data=data.text.encode("utf-8"),
        is_text=True,
        **_fields_of(data),
    )


def _fields_of(fields: DocumentFields) -> dict[str, Any]:
    return {
        "format": fields.format,
        "title": fields.title,
        "metadata": fields.metadata,
        "source_uri": fields.source_uri,
        "external_id": fields.external_id,
        "chunking": fields.chunking,
        "access": fields.access.model_dump() if fields.access is not None else None,
    }


def _json_object(raw: str | None, name: str) -> dict[str, Any] | None:
    if raw is None or raw == "":
        return None
    value = nesting.loads(raw, what=f"Form field {name!r}")
    if not isinstance(value, dict):
        raise ValidationFailed(f"Form field {name!r} must be a JSON object.")
    return value


def _text_field(form: Any, name: str, max_length: int) -> str | None:
    value = form.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationFailed(f"Form field {name!r} must be text.")
    if len(value) > max_length:
        raise ValidationFailed(f"Form field {name!r} is longer than {max_length} characters.")
    return value or None


async def read_multipart(request: Request, limit: int, *, also: Collection[str] = ()) -> Upload:
    """A multipart upload: its `file` and the upload's form fields, plus the text fields named
    in `also` (at most MAX_FORM_FIELD_BYTES characters each) for a route that takes more."""
    parser = _StrictFieldsParser(
        request.headers,
        limited_stream(request, limit),
        max_files=1,
        max_fields=20,
        max_part_size=MAX_FORM_FIELD_BYTES,
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise BadRequest(f"The multipart body is malformed: {exc.message}") from exc
    try:
        if parser.undecodable:
            raise ValidationFailed(
                f"Form field {parser.undecodable[0]!r} is not UTF-8 text; form fields are "
                "UTF-8, as JSON bodies are."
            )
        taken = dict.fromkeys(["file", *FORM_FIELDS, *also])
        unknown = sorted(set(form.keys()) - taken.keys())
        if unknown:
            # A misspelt field (`metdata`) would be dropped without a word: refused instead,
            # as a JSON upload's unknown keys are.
            raise ValidationFailed(
                f"Form field {unknown[0]!r} is not taken here; the fields are "
                f"{', '.join(f'`{name}`' for name in taken)}."
            )
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise ValidationFailed("A multipart upload needs a `file` part.")
        data = await upload.read()
        return Upload(
            data=data,
            filename=upload.filename,
            content_type=upload.content_type,
            also={
                name: _text_field(form, name, MAX_FORM_FIELD_BYTES) or ""
                for name in also
                if name in form
            },
            **_fields_of(_form_fields(form)),
        )
    finally:
        await form.close()


class _StrictFieldsParser(MultiPartParser):
    """Starlette's parser, except that a text field that is not valid in its charset is noted
    (`undecodable`) instead of being decoded as Latin-1 and stored as other characters."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.undecodable: list[str] = []

    def on_part_end(self) -> None:
        part = self._current_part
        if part.file is None:
            try:
                bytes(part.data).decode(self._charset)
            except (UnicodeDecodeError, LookupError):
                self.undecodable.append(part.field_name)
        super().on_part_end()


FORM_FIELDS = ("title", "metadata", "source_uri", "external_id", "chunking", "format", "access")


def _form_fields(form: Any) -> DocumentFields:
    """The form fields, checked by the model that checks a JSON upload's fields."""
    given = {
        "title": _text_field(form, "title", 1000),
        "metadata": _json_object(_text_field(form, "metadata", MAX_FORM_FIELD_BYTES), "metadata"),
        "source_uri": _text_field(form, "source_uri", 4000),
        "external_id": _text_field(form, "external_id", 256),
        "chunking": _json_object(_text_field(form, "chunking", 10_000), "chunking"),
        "format": _text_field(form, "format", 16),
        "access": _json_object(_text_field(form, "access", 100_000), "access"),
    }
    try:
        return DocumentFields.model_validate(
            {name: value for name, value in given.items() if value is not None}
        )
    except ValidationError as exc:
        raise invalid_body(exc, "a valid upload") from exc


def precheck(upload: Upload) -> str:
    """Checks cheap enough to answer at upload; returns the detected format."""
    if not upload.data.strip():
        raise UnprocessableDocument("The document is empty.")
    if upload.is_text:
        # Before detection, which calls text with a NUL binary (415) rather than bad text.
        _check_text(upload.data)
    fmt = upload.format or detect_format(upload.data, upload.filename, upload.content_type)
    if fmt in TEXT_FORMATS and not upload.is_text:
        _check_text(upload.data)
    return fmt


def _check_text(data: bytes) -> None:
    if b"\x00" in data:
        raise UnprocessableDocument("The document contains NUL bytes; it is not text.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnprocessableDocument(f"The document is not valid UTF-8 (byte {exc.start}).") from exc
    # As the parsers see it (app/ingestion/parsers/base.py): BOM dropped, Unicode whitespace
    # stripped. bytes.strip() above knows only ASCII whitespace.
    if not text.removeprefix("\ufeff").strip():
        raise UnprocessableDocument("The document is empty.")
