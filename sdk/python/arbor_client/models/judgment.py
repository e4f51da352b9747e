from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Judgment")


@_attrs_define
class Judgment:
    """A BEIR qrels row: how relevant a document is to a query (>= 1: relevant).

    Attributes:
        doc_id (str): A document id or external id.
        query_id (str):
        score (int):
    """

    doc_id: str
    query_id: str
    score: int

    def to_dict(self) -> dict[str, Any]:
        doc_id = self.doc_id

        query_id = self.query_id

        score = self.score

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "doc_id": doc_id,
                "query_id": query_id,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        doc_id = d.pop("doc_id")

        query_id = d.pop("query_id")

        score = d.pop("score")

        judgment = cls(
            doc_id=doc_id,
            query_id=query_id,
            score=score,
        )

        return judgment
