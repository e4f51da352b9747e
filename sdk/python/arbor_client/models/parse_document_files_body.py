from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, File, Unset

T = TypeVar("T", bound="ParseDocumentFilesBody")


@_attrs_define
class ParseDocumentFilesBody:
    """
    Attributes:
        file (File):
        chunking (str | Unset): A JSON object. Overrides the knowledge base's chunking, as an upload's `chunking` does;
            needs `knowledge_base`.
        format_ (str | Unset): A supported format name; detected when absent.
        knowledge_base (str | Unset): A knowledge base (id or name) of the caller's: also cut the document into the
            chunks an upload to it would get, with its chunking settings and its embedder's tokenizer.
        title (str | Unset):
    """

    file: File
    chunking: str | Unset = UNSET
    format_: str | Unset = UNSET
    knowledge_base: str | Unset = UNSET
    title: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()

        chunking = self.chunking

        format_ = self.format_

        knowledge_base = self.knowledge_base

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file": file,
            }
        )
        if chunking is not UNSET:
            field_dict["chunking"] = chunking
        if format_ is not UNSET:
            field_dict["format"] = format_
        if knowledge_base is not UNSET:
            field_dict["knowledge_base"] = knowledge_base
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))

        if not isinstance(self.chunking, Unset):
            files.append(("chunking", (None, str(self.chunking).encode(), "text/plain")))

        if not isinstance(self.format_, Unset):
            files.append(("format", (None, str(self.format_).encode(), "text/plain")))

        if not isinstance(self.knowledge_base, Unset):
            files.append(("knowledge_base", (None, str(self.knowledge_base).encode(), "text/plain")))

        if not isinstance(self.title, Unset):
            files.append(("title", (None, str(self.title).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file = File(payload=BytesIO(d.pop("file")))

        chunking = d.pop("chunking", UNSET)

        format_ = d.pop("format", UNSET)

        knowledge_base = d.pop("knowledge_base", UNSET)

        title = d.pop("title", UNSET)

        parse_document_files_body = cls(
            file=file,
            chunking=chunking,
            format_=format_,
            knowledge_base=knowledge_base,
            title=title,
        )

        parse_document_files_body.additional_properties = d
        return parse_document_files_body

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
