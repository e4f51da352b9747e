from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Citation")


@_attrs_define
class Citation:
    """
    Attributes:
        chunk_id (UUID):
        doc_id (UUID):
        doc_title (str):
        n (int):
        quote (str): The source's text as given to the generator.
        section_titles (list[str]):
        end_offset (int | None | Unset):
        page_end (int | None | Unset):
        page_start (int | None | Unset):
        start_offset (int | None | Unset):
    """

    chunk_id: UUID
    doc_id: UUID
    doc_title: str
    n: int
    quote: str
    section_titles: list[str]
    end_offset: int | None | Unset = UNSET
    page_end: int | None | Unset = UNSET
    page_start: int | None | Unset = UNSET
    start_offset: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_id = str(self.chunk_id)

        doc_id = str(self.doc_id)

        doc_title = self.doc_title

        n = self.n

        quote = self.quote

        section_titles = self.section_titles

        end_offset: int | None | Unset
        if isinstance(self.end_offset, Unset):
            end_offset = UNSET
        else:
            end_offset = self.end_offset

        page_end: int | None | Unset
        if isinstance(self.page_end, Unset):
            page_end = UNSET
        else:
            page_end = self.page_end

        page_start: int | None | Unset
        if isinstance(self.page_start, Unset):
            page_start = UNSET
        else:
            page_start = self.page_start

        start_offset: int | None | Unset
        if isinstance(self.start_offset, Unset):
            start_offset = UNSET
        else:
            start_offset = self.start_offset

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_id": chunk_id,
                "doc_id": doc_id,
                "doc_title": doc_title,
                "n": n,
                "quote": quote,
                "section_titles": section_titles,
            }
        )
        if end_offset is not UNSET:
            field_dict["end_offset"] = end_offset
        if page_end is not UNSET:
            field_dict["page_end"] = page_end
        if page_start is not UNSET:
            field_dict["page_start"] = page_start
        if start_offset is not UNSET:
            field_dict["start_offset"] = start_offset

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chunk_id = UUID(d.pop("chunk_id"))

        doc_id = UUID(d.pop("doc_id"))

        doc_title = d.pop("doc_title")

        n = d.pop("n")

        quote = d.pop("quote")

        section_titles = cast(list[str], d.pop("section_titles"))

        def _parse_end_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        end_offset = _parse_end_offset(d.pop("end_offset", UNSET))

        def _parse_page_end(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page_end = _parse_page_end(d.pop("page_end", UNSET))

        def _parse_page_start(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page_start = _parse_page_start(d.pop("page_start", UNSET))

        def _parse_start_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        start_offset = _parse_start_offset(d.pop("start_offset", UNSET))

        citation = cls(
            chunk_id=chunk_id,
            doc_id=doc_id,
            doc_title=doc_title,
            n=n,
            quote=quote,
            section_titles=section_titles,
            end_offset=end_offset,
            page_end=page_end,
            page_start=page_start,
            start_offset=start_offset,
        )

        citation.additional_properties = d
        return citation

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
