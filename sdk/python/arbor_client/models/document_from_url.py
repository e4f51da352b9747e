from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_access import DocumentAccess
    from ..models.document_from_url_chunking_type_0 import DocumentFromUrlChunkingType0
    from ..models.document_from_url_metadata import DocumentFromUrlMetadata


T = TypeVar("T", bound="DocumentFromUrl")


@_attrs_define
class DocumentFromUrl:
    """A JSON upload of a URL to fetch (not in `documents/batch`).

    Attributes:
        url (str): http or https; public addresses only unless the operator allows others (docs/sources.md). An HTML
            page is reduced to its main content, other formats go to their parsers; `source_uri` defaults to the URL.
        access (DocumentAccess | None | Unset): Who may read the document; absent: everyone in the project.
        chunking (DocumentFromUrlChunkingType0 | None | Unset): Overrides the knowledge base's chunking for this upload.
        external_id (None | str | Unset):
        format_ (None | str | Unset): A supported format name; detected when absent.
        metadata (DocumentFromUrlMetadata | Unset):
        source_uri (None | str | Unset):
        title (None | str | Unset): Blank: none (the parsed title stands in).
    """

    url: str
    access: DocumentAccess | None | Unset = UNSET
    chunking: DocumentFromUrlChunkingType0 | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    format_: None | str | Unset = UNSET
    metadata: DocumentFromUrlMetadata | Unset = UNSET
    source_uri: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.document_from_url_chunking_type_0 import DocumentFromUrlChunkingType0  # noqa: PLC0415

        url = self.url

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
        elif isinstance(self.chunking, DocumentFromUrlChunkingType0):
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
                "url": url,
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
        from ..models.document_from_url_chunking_type_0 import DocumentFromUrlChunkingType0  # noqa: PLC0415
        from ..models.document_from_url_metadata import DocumentFromUrlMetadata  # noqa: PLC0415

        d = dict(src_dict)
        url = d.pop("url")

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

        def _parse_chunking(data: object) -> DocumentFromUrlChunkingType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                chunking_type_0 = DocumentFromUrlChunkingType0.from_dict(data)

                return chunking_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentFromUrlChunkingType0 | None | Unset, data)

        chunking = _parse_chunking(d.pop("chunking", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        def _parse_format_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        format_ = _parse_format_(d.pop("format", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: DocumentFromUrlMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = DocumentFromUrlMetadata.from_dict(_metadata)

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

        document_from_url = cls(
            url=url,
            access=access,
            chunking=chunking,
            external_id=external_id,
            format_=format_,
            metadata=metadata,
            source_uri=source_uri,
            title=title,
        )

        return document_from_url
