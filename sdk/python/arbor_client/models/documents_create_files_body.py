from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, File, Unset

T = TypeVar("T", bound="DocumentsCreateFilesBody")


@_attrs_define
class DocumentsCreateFilesBody:
    """
    Attributes:
        file (File):
        access (str | Unset): A JSON object: {"principals": [...]}.
        chunking (str | Unset): A JSON object.
        external_id (str | Unset):
        format_ (str | Unset):
        metadata (str | Unset): A JSON object.
        source_uri (str | Unset):
        title (str | Unset):
    """

    file: File
    access: str | Unset = UNSET
    chunking: str | Unset = UNSET
    external_id: str | Unset = UNSET
    format_: str | Unset = UNSET
    metadata: str | Unset = UNSET
    source_uri: str | Unset = UNSET
    title: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()

        access = self.access

        chunking = self.chunking

        external_id = self.external_id

        format_ = self.format_

        metadata = self.metadata

        source_uri = self.source_uri

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file": file,
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

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))

        if not isinstance(self.access, Unset):
            files.append(("access", (None, str(self.access).encode(), "text/plain")))

        if not isinstance(self.chunking, Unset):
            files.append(("chunking", (None, str(self.chunking).encode(), "text/plain")))

        if not isinstance(self.external_id, Unset):
            files.append(("external_id", (None, str(self.external_id).encode(), "text/plain")))

        if not isinstance(self.format_, Unset):
            files.append(("format", (None, str(self.format_).encode(), "text/plain")))

        if not isinstance(self.metadata, Unset):
            files.append(("metadata", (None, str(self.metadata).encode(), "text/plain")))

        if not isinstance(self.source_uri, Unset):
            files.append(("source_uri", (None, str(self.source_uri).encode(), "text/plain")))

        if not isinstance(self.title, Unset):
            files.append(("title", (None, str(self.title).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file = File(payload=BytesIO(d.pop("file")))

        access = d.pop("access", UNSET)

        chunking = d.pop("chunking", UNSET)

        external_id = d.pop("external_id", UNSET)

        format_ = d.pop("format", UNSET)

        metadata = d.pop("metadata", UNSET)

        source_uri = d.pop("source_uri", UNSET)

        title = d.pop("title", UNSET)

        documents_create_files_body = cls(
            file=file,
            access=access,
            chunking=chunking,
            external_id=external_id,
            format_=format_,
            metadata=metadata,
            source_uri=source_uri,
            title=title,
        )

        documents_create_files_body.additional_properties = d
        return documents_create_files_body

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
