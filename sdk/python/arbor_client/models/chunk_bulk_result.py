from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ChunkBulkResult")


@_attrs_define
class ChunkBulkResult:
    """
    Attributes:
        chunk_ids (list[UUID]):
        count (int):
        embedded (int): How many of them now have a vector.
        embedding_error (None | str | Unset): Set when the knowledge base's embedder failed: the chunks sent without a
            vector were stored without one (not counted in `embedded`; text search finds them), and `POST .../chunks/embed`
            embeds them once it is back.
        index_job_id (None | Unset | UUID): With `defer_index=true`: the job that rebuilds the vector index 10 seconds
            after the last deferring request (GET .../jobs/{id}).
    """

    chunk_ids: list[UUID]
    count: int
    embedded: int
    embedding_error: None | str | Unset = UNSET
    index_job_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_ids = []
        for chunk_ids_item_data in self.chunk_ids:
            chunk_ids_item = str(chunk_ids_item_data)
            chunk_ids.append(chunk_ids_item)

        count = self.count

        embedded = self.embedded

        embedding_error: None | str | Unset
        if isinstance(self.embedding_error, Unset):
            embedding_error = UNSET
        else:
            embedding_error = self.embedding_error

        index_job_id: None | str | Unset
        if isinstance(self.index_job_id, Unset):
            index_job_id = UNSET
        elif isinstance(self.index_job_id, UUID):
            index_job_id = str(self.index_job_id)
        else:
            index_job_id = self.index_job_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_ids": chunk_ids,
                "count": count,
                "embedded": embedded,
            }
        )
        if embedding_error is not UNSET:
            field_dict["embedding_error"] = embedding_error
        if index_job_id is not UNSET:
            field_dict["index_job_id"] = index_job_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chunk_ids = []
        _chunk_ids = d.pop("chunk_ids")
        for chunk_ids_item_data in _chunk_ids:
            chunk_ids_item = UUID(chunk_ids_item_data)

            chunk_ids.append(chunk_ids_item)

        count = d.pop("count")

        embedded = d.pop("embedded")

        def _parse_embedding_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        embedding_error = _parse_embedding_error(d.pop("embedding_error", UNSET))

        def _parse_index_job_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                index_job_id_type_0 = UUID(data)

                return index_job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        index_job_id = _parse_index_job_id(d.pop("index_job_id", UNSET))

        chunk_bulk_result = cls(
            chunk_ids=chunk_ids,
            count=count,
            embedded=embedded,
            embedding_error=embedding_error,
            index_job_id=index_job_id,
        )

        chunk_bulk_result.additional_properties = d
        return chunk_bulk_result

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
