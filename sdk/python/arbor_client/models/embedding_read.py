from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EmbeddingRead")


@_attrs_define
class EmbeddingRead:
    """One vector per text, in the order of `texts`; the knowledge base's model and dimension.

    Attributes:
        dimensions (int):
        model (str): The knowledge base's embedding model.
        vectors (list[list[float]]): Unit-length vectors as the model returns them (float32 values).
    """

    dimensions: int
    model: str
    vectors: list[list[float]]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dimensions = self.dimensions

        model = self.model

        vectors = []
        for vectors_item_data in self.vectors:
            vectors_item = vectors_item_data

            vectors.append(vectors_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dimensions": dimensions,
                "model": model,
                "vectors": vectors,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dimensions = d.pop("dimensions")

        model = d.pop("model")

        vectors = []
        _vectors = d.pop("vectors")
        for vectors_item_data in _vectors:
            vectors_item = cast(list[float], vectors_item_data)

            vectors.append(vectors_item)

        embedding_read = cls(
            dimensions=dimensions,
            model=model,
            vectors=vectors,
        )

        embedding_read.additional_properties = d
        return embedding_read

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
