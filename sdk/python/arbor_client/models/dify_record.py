from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.dify_record_metadata import DifyRecordMetadata


T = TypeVar("T", bound="DifyRecord")


@_attrs_define
class DifyRecord:
    """
    Attributes:
        content (str): The chunk's text.
        metadata (DifyRecordMetadata): The document's and chunk's metadata, plus Arbor's `doc_id`, `chunk_id`,
            `knowledge_base_id`, `section_path` and pages (always an object, never null).
        score (float): Relevance in [0, 1] (Arbor's hybrid score).
        title (str): The document's title.
    """

    content: str
    metadata: DifyRecordMetadata
    score: float
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        metadata = self.metadata.to_dict()

        score = self.score

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content": content,
                "metadata": metadata,
                "score": score,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dify_record_metadata import DifyRecordMetadata  # noqa: PLC0415

        d = dict(src_dict)
        content = d.pop("content")

        metadata = DifyRecordMetadata.from_dict(d.pop("metadata"))

        score = d.pop("score")

        title = d.pop("title")

        dify_record = cls(
            content=content,
            metadata=metadata,
            score=score,
            title=title,
        )

        dify_record.additional_properties = d
        return dify_record

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
