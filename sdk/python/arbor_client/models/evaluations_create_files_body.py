from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, File, Unset

T = TypeVar("T", bound="EvaluationsCreateFilesBody")


@_attrs_define
class EvaluationsCreateFilesBody:
    """
    Attributes:
        qrels (File): BEIR qrels TSV: query-id, corpus-id, score.
        queries (File): BEIR queries.jsonl: one {_id, text} per line.
        configurations (str | Unset): A JSON list of {name, ...search options}.
        name (str | Unset):
    """

    qrels: File
    queries: File
    configurations: str | Unset = UNSET
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        qrels = self.qrels.to_tuple()

        queries = self.queries.to_tuple()

        configurations = self.configurations

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "qrels": qrels,
                "queries": queries,
            }
        )
        if configurations is not UNSET:
            field_dict["configurations"] = configurations
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("qrels", self.qrels.to_tuple()))

        files.append(("queries", self.queries.to_tuple()))

        if not isinstance(self.configurations, Unset):
            files.append(("configurations", (None, str(self.configurations).encode(), "text/plain")))

        if not isinstance(self.name, Unset):
            files.append(("name", (None, str(self.name).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        qrels = File(payload=BytesIO(d.pop("qrels")))

        queries = File(payload=BytesIO(d.pop("queries")))

        configurations = d.pop("configurations", UNSET)

        name = d.pop("name", UNSET)

        evaluations_create_files_body = cls(
            qrels=qrels,
            queries=queries,
            configurations=configurations,
            name=name,
        )

        evaluations_create_files_body.additional_properties = d
        return evaluations_create_files_body

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
