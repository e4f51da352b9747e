from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.document_create_format_type_0 import DocumentCreateFormatType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_access import DocumentAccess
    from ..models.document_create_chunking_type_0 import DocumentCreateChunkingType0
    from ..models.document_create_metadata import DocumentCreateMetadata


T = TypeVar("T", bound="DocumentCreate")


@_attrs_define
class DocumentCreate:
    """A JSON upload of text (markdown or plain); files go through multipart.

    Attributes:
        text (str): The document's text.
        access (DocumentAccess | None | Unset): Who may read the document; absent: everyone in the project.
        chunking (DocumentCreateChunkingType0 | None | Unset): Overrides the knowledge base's chunking for this upload.
        external_id (None | str | Unset):
        format_ (DocumentCreateFormatType0 | None | Unset): Detected when absent.
        metadata (DocumentCreateMetadata | Unset):
        source_uri (None | str | Unset):
        title (None | str | Unset): Blank: none (the parsed title stands in).
    """

    text: str
    access: DocumentAccess | None | Unset = UNSET
    chunking: DocumentCreateChunkingType0 | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    format_: DocumentCreateFormatType0 | None | Unset = UNSET
    metadata: DocumentCreateMetadata | Unset = UNSET
    source_uri: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.document_create_chunking_type_0 import DocumentCreateChunkingType0  # noqa: PLC0415

        text = self.text

        access: dict[str, Any] | None | Unset
        if isinstance(self.access, Unset):
            access = UNSET
        elif isinstance(self.access, DocumentAccess):
            access = self.access.to_dict()
        else:
            access = self.access

        chunking: dict[str, Any] | None | Unset
        if isinstance(self.chunking, Unset):
            chunking = UNSET
        elif isinstance(self.chunking, DocumentCreateChunkingType0):
            chunking = self.chunking.to_dict()
        else:
            chunking = self.chunking

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        format_: None | str | Unset
        if isinstance(self.format_, Unset):
            format_ = UNSET
        elif isinstance(self.format_, DocumentCreateFormatType0):
            format_ = self.format_.value
        else:
            format_ = self.format_

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_uri: None | str | Unset
        if isinstance(self.source_uri, Unset):
            source_uri = UNSET
        else:
            source_uri = self.source_uri

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
            }
        )
        if access is not UNSET:
            field_dict["access"] = access
        if chunking is not UNSET:
            field_dict["chunking"] = chunking
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if format_ is not UNSET:
            field_dict["format"] = format_
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_uri is not UNSET:
            field_dict["source_uri"] = source_uri
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.document_create_chunking_type_0 import DocumentCreateChunkingType0  # noqa: PLC0415
        from ..models.document_create_metadata import DocumentCreateMetadata  # noqa: PLC0415

        d = dict(src_dict)
        text = d.pop("text")

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

        def _parse_chunking(data: object) -> DocumentCreateChunkingType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                chunking_type_0 = DocumentCreateChunkingType0.from_dict(data)

                return chunking_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentCreateChunkingType0 | None | Unset, data)

        chunking = _parse_chunking(d.pop("chunking", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        def _parse_format_(data: object) -> DocumentCreateFormatType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                format_type_0 = DocumentCreateFormatType0(data)

                return format_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentCreateFormatType0 | None | Unset, data)

        format_ = _parse_format_(d.pop("format", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: DocumentCreateMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = DocumentCreateMetadata.from_dict(_metadata)

        def _parse_source_uri(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_uri = _parse_source_uri(d.pop("source_uri", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        document_create = cls(
            text=text,
            access=access,
            chunking=chunking,
            external_id=external_id,
            format_=format_,
            metadata=metadata,
            source_uri=source_uri,
            title=title,
        )

        return document_create
