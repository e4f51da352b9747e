from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.document_read_status import DocumentReadStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_access import DocumentAccess
    from ..models.document_read_metadata import DocumentReadMetadata
    from ..models.progress import Progress


T = TypeVar("T", bound="DocumentRead")


@_attrs_define
class DocumentRead:
    """
    Attributes:
        chunk_count (int):
        content_sha256 (None | str):
        created_at (datetime.datetime):
        embedded_count (int):
        error (None | str):
        external_id (None | str):
        filename (None | str):
        format_ (None | str):
        id (UUID):
        knowledge_base_id (UUID):
        metadata (DocumentReadMetadata):
        progress (Progress):
        size_bytes (int):
        source_uri (None | str):
        status (DocumentReadStatus):
        title (str):
        updated_at (datetime.datetime):
        access (DocumentAccess | None | Unset):
        source_id (None | Unset | UUID): The knowledge source that wrote it (docs/sources.md).
        source_record_id (None | str | Unset): Its item in that source: a record id, a path, a URL.
    """

    chunk_count: int
    content_sha256: None | str
    created_at: datetime.datetime
    embedded_count: int
    error: None | str
    external_id: None | str
    filename: None | str
    format_: None | str
    id: UUID
    knowledge_base_id: UUID
    metadata: DocumentReadMetadata
    progress: Progress
    size_bytes: int
    source_uri: None | str
    status: DocumentReadStatus
    title: str
    updated_at: datetime.datetime
    access: DocumentAccess | None | Unset = UNSET
    source_id: None | Unset | UUID = UNSET
    source_record_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415

        chunk_count = self.chunk_count

        content_sha256: None | str
        content_sha256 = self.content_sha256

        created_at = self.created_at.isoformat()

        embedded_count = self.embedded_count

        error: None | str
        error = self.error

        external_id: None | str
        external_id = self.external_id

        filename: None | str
        filename = self.filename

        format_: None | str
        format_ = self.format_

        id = str(self.id)

        knowledge_base_id = str(self.knowledge_base_id)

        metadata = self.metadata.to_dict()

        progress = self.progress.to_dict()

        size_bytes = self.size_bytes

        source_uri: None | str
        source_uri = self.source_uri

        status = self.status.value

        title = self.title

        updated_at = self.updated_at.isoformat()

        access: dict[str, Any] | None | Unset
        if isinstance(self.access, Unset):
            access = UNSET
        elif isinstance(self.access, DocumentAccess):
            access = self.access.to_dict()
        else:
            access = self.access

        source_id: None | str | Unset
        if isinstance(self.source_id, Unset):
            source_id = UNSET
        elif isinstance(self.source_id, UUID):
            source_id = str(self.source_id)
        else:
            source_id = self.source_id

        source_record_id: None | str | Unset
        if isinstance(self.source_record_id, Unset):
            source_record_id = UNSET
        else:
            source_record_id = self.source_record_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_count": chunk_count,
                "content_sha256": content_sha256,
                "created_at": created_at,
                "embedded_count": embedded_count,
                "error": error,
                "external_id": external_id,
                "filename": filename,
                "format": format_,
                "id": id,
                "knowledge_base_id": knowledge_base_id,
                "metadata": metadata,
                "progress": progress,
                "size_bytes": size_bytes,
                "source_uri": source_uri,
                "status": status,
                "title": title,
                "updated_at": updated_at,
            }
        )
        if access is not UNSET:
            field_dict["access"] = access
        if source_id is not UNSET:
            field_dict["source_id"] = source_id
        if source_record_id is not UNSET:
            field_dict["source_record_id"] = source_record_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.document_read_metadata import DocumentReadMetadata  # noqa: PLC0415
        from ..models.progress import Progress  # noqa: PLC0415

        d = dict(src_dict)
        chunk_count = d.pop("chunk_count")

        def _parse_content_sha256(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        content_sha256 = _parse_content_sha256(d.pop("content_sha256"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        embedded_count = d.pop("embedded_count")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("external_id"))

        def _parse_filename(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        filename = _parse_filename(d.pop("filename"))

        def _parse_format_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        format_ = _parse_format_(d.pop("format"))

        id = UUID(d.pop("id"))

        knowledge_base_id = UUID(d.pop("knowledge_base_id"))

        metadata = DocumentReadMetadata.from_dict(d.pop("metadata"))

        progress = Progress.from_dict(d.pop("progress"))

        size_bytes = d.pop("size_bytes")

        def _parse_source_uri(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_uri = _parse_source_uri(d.pop("source_uri"))

        status = DocumentReadStatus(d.pop("status"))

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_access(data: object) -> DocumentAccess | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                access_type_0 = DocumentAccess.from_dict(data)

                return access_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentAccess | None | Unset, data)

        access = _parse_access(d.pop("access", UNSET))

        def _parse_source_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                source_id_type_0 = UUID(data)

                return source_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        source_id = _parse_source_id(d.pop("source_id", UNSET))

        def _parse_source_record_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_record_id = _parse_source_record_id(d.pop("source_record_id", UNSET))

        document_read = cls(
            chunk_count=chunk_count,
            content_sha256=content_sha256,
            created_at=created_at,
            embedded_count=embedded_count,
            error=error,
            external_id=external_id,
            filename=filename,
            format_=format_,
            id=id,
            knowledge_base_id=knowledge_base_id,
            metadata=metadata,
            progress=progress,
            size_bytes=size_bytes,
            source_uri=source_uri,
            status=status,
            title=title,
            updated_at=updated_at,
            access=access,
            source_id=source_id,
            source_record_id=source_record_id,
        )

        document_read.additional_properties = d
        return document_read

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
