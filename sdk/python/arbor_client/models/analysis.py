from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.analysis_source import AnalysisSource
from ..models.intent import Intent

T = TypeVar("T", bound="Analysis")


@_attrs_define
class Analysis:
    """
    Attributes:
        entities (list[str]):
        intent (Intent):
        question (str): The standalone question retrieval ran with.
        source (AnalysisSource): `llm`: the model analysed it; `lexical`: words longer than 3 characters (no LLM, or its
            output did not parse); `skipped`: quick mode.
    """

    entities: list[str]
    intent: Intent
    question: str
    source: AnalysisSource
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entities = self.entities

        intent = self.intent.value

        question = self.question

        source = self.source.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entities": entities,
                "intent": intent,
                "question": question,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entities = cast(list[str], d.pop("entities"))

        intent = Intent(d.pop("intent"))

        question = d.pop("question")

        source = AnalysisSource(d.pop("source"))

        analysis = cls(
            entities=entities,
            intent=intent,
            question=question,
            source=source,
        )

        analysis.additional_properties = d
        return analysis

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
