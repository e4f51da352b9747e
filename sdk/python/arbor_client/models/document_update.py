from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_access import DocumentAccess
    from ..models.document_update_metadata import DocumentUpdateMetadata


T = TypeVar("T", bound="DocumentUpdate")


@_attrs_define
class DocumentUpdate:
    """A change in place (no ingestion): only the fields given change, at least one.

    `title` and `metadata` may not be null (leave them out to keep them); `source_uri: null`
    removes the URI and `access: null` lets everyone in the project read the document.

        Attributes:
            access (DocumentAccess | None | Unset): Who may read the document; null: everyone in the project.
            metadata (DocumentUpdateMetadata | Unset): Replaces the whole metadata object (no merge: send every key to keep;
                `{}` clears it). Chunks without metadata of their own carry the new object.
            source_uri (None | str | Unset): null removes it.
            title (str | Unset): The new title; also the `doc_title` of every chunk of the document.
    """

    access: DocumentAccess | None | Unset = UNSET
    metadata: DocumentUpdateMetadata | Unset = UNSET
    source_uri: None | str | Unset = UNSET
    title: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415

        access: dict[str, Any] | None | Unset
        if isinstance(self.access, Unset):
            access = UNSET
        elif isinstance(self.access, DocumentAccess):
            access = self.access.to_dict()
        else:
            access = self.access

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_uri: None | str | Unset
        if isinstance(self.source_uri, Unset):
            source_uri = UNSET
        else:
            source_uri = self.source_uri

        title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if access is not UNSET:
            field_dict["access"] = access
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
        from ..models.document_update_metadata import DocumentUpdateMetadata  # noqa: PLC0415

        d = dict(src_dict)

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

        _metadata = d.pop("metadata", UNSET)
        metadata: DocumentUpdateMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = DocumentUpdateMetadata.from_dict(_metadata)

        def _parse_source_uri(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_uri = _parse_source_uri(d.pop("source_uri", UNSET))

        title = d.pop("title", UNSET)

        document_update = cls(
            access=access,
            metadata=metadata,
            source_uri=source_uri,
            title=title,
        )

        return document_update
