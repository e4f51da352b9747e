from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChunkSpan")


@_attrs_define
class ChunkSpan:
    """One of the parts of a chunk that hierarchical chunking merged from several sections:
    its lineage and its `[start, end)` range in the extracted text.

        Attributes:
            end (int):
            node_path (list[str]): Node ids, root to the part's section.
            section_titles (list[str]):
            start (int):
    """

    end: int
    node_path: list[str]
    section_titles: list[str]
    start: int

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        node_path = self.node_path

        section_titles = self.section_titles

        start = self.start

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "end": end,
                "node_path": node_path,
                "section_titles": section_titles,
                "start": start,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end = d.pop("end")

        node_path = cast(list[str], d.pop("node_path"))

        section_titles = cast(list[str], d.pop("section_titles"))

        start = d.pop("start")

        chunk_span = cls(
            end=end,
            node_path=node_path,
            section_titles=section_titles,
            start=start,
        )

        return chunk_span
