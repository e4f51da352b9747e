"""Reading an upload: size-limited streaming, multipart or JSON, and the checks done at once."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from pydantic import ValidationError
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from app.auth.acl import DocumentAccess
from app.documents.schemas import DocumentBatchCreate, DocumentCreate
from app.ingestion.detect import detect_format
from app.kit.bodies import limited_stream, read_json_model
from app.kit.errors import BadRequest, UnprocessableDocument, ValidationFailed

TEXT_FORMATS = frozenset({"text", "markdown", "csv", "html"})
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


async def read_json(request: Request, limit: int) -> Upload:
    data = await read_json_model(request, DocumentCreate, limit=limit, what="a valid document")
    return _upload_of(data)


async def read_json_batch(request: Request, limit: int) -> list[Upload]:
    """A batch body (`{"documents": [...]}`), within the same size limit as one upload."""
    batch = await read_json_model(
        request, DocumentBatchCreate, limit=limit, what="a valid batch of documents"
    )
    return [_upload_of(data) for data in batch.documents]


def _upload_of(data: DocumentCreate) -> Upload:
    return Upload(
        data=data.text.encode("utf-8"),
        format=data.format,
        title=data.title,
        metadata=data.metadata,
        source_uri=data.source_uri,
        external_id=data.external_id,
        chunking=data.chunking,
        access=data.access.model_dump() if data.access is not None else None,
    )


def _access(raw: dict[str, Any] | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        return DocumentAccess.model_validate(raw).model_dump()
    except ValidationError as exc:
        raise ValidationFailed(
            "Form field 'access' must be {\"principals\": [...]}: "
            + "; ".join(err["msg"] for err in exc.errors()[:3])
        ) from exc


def _json_object(raw: str | None, name: str) -> dict[str, Any] | None:
    if raw is None or raw == "":
        return None
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise ValidationFailed(f"Form field {name!r} must be a JSON object.") from exc
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


async def read_multipart(request: Request, limit: int) -> Upload:
    parser = MultiPartParser(
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
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise ValidationFailed("A multipart upload needs a `file` part.")
        data = await upload.read()
        return Upload(
            data=data,
            filename=upload.filename,
            content_type=upload.content_type,
            title=_text_field(form, "title", 1000),
            metadata=_json_object(_text_field(form, "metadata", MAX_FORM_FIELD_BYTES), "metadata")
            or {},
            source_uri=_text_field(form, "source_uri", 4000),
            external_id=_text_field(form, "external_id", 256),
            chunking=_json_object(_text_field(form, "chunking", 10_000), "chunking"),
            format=_text_field(form, "format", 16),
            access=_access(_json_object(_text_field(form, "access", 100_000), "access")),
        )
    finally:
        await form.close()


def precheck(upload: Upload) -> str:
    """Checks cheap enough to answer at upload; returns the detected format."""
    if not upload.data.strip():
        raise UnprocessableDocument("The document is empty.")
    fmt = upload.format or detect_format(upload.data, upload.filename, upload.content_type)
    if fmt in TEXT_FORMATS:
        if b"\x00" in upload.data:
            raise UnprocessableDocument("The document contains NUL bytes; it is not text.")
        try:
            upload.data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnprocessableDocument(
                f"The document is not valid UTF-8 (byte {exc.start})."
            ) from exc
    return fmt
