from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.answer_response_generator import AnswerResponseGenerator
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.action import Action
    from ..models.analysis import Analysis
    from ..models.answer_usage import AnswerUsage
    from ..models.citation import Citation
    from ..models.source import Source


T = TypeVar("T", bound="AnswerResponse")


@_attrs_define
class AnswerResponse:
    """
    Attributes:
        actions (list[Action]):
        analysis (Analysis):
        answer (str):
        citations (list[Citation]):
        generator (AnswerResponseGenerator): What wrote the answer; `none` when no source was relevant.
        sources (list[Source]):
        usage (AnswerUsage):
        warnings (list[str]):
        model (None | str | Unset): The LLM's model, when one wrote it.
    """

    actions: list[Action]
    analysis: Analysis
    answer: str
    citations: list[Citation]
    generator: AnswerResponseGenerator
    sources: list[Source]
    usage: AnswerUsage
    warnings: list[str]
    model: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = []
        for actions_item_data in self.actions:
            actions_item = actions_item_data.to_dict()
            actions.append(actions_item)

        analysis = self.analysis.to_dict()

        answer = self.answer

        citations = []
        for citations_item_data in self.citations:
            citations_item = citations_item_data.to_dict()
            citations.append(citations_item)

        generator = self.generator.value

        sources = []
        for sources_item_data in self.sources:
            sources_item = sources_item_data.to_dict()
            sources.append(sources_item)

        usage = self.usage.to_dict()

        warnings = self.warnings

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "analysis": analysis,
                "answer": answer,
                "citations": citations,
                "generator": generator,
                "sources": sources,
                "usage": usage,
                "warnings": warnings,
            }
        )
        if model is not UNSET:
            field_dict["model"] = model

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action import Action  # noqa: PLC0415
        from ..models.analysis import Analysis  # noqa: PLC0415
        from ..models.answer_usage import AnswerUsage  # noqa: PLC0415
        from ..models.citation import Citation  # noqa: PLC0415
        from ..models.source import Source  # noqa: PLC0415

        d = dict(src_dict)
        actions = []
        _actions = d.pop("actions")
        for actions_item_data in _actions:
            actions_item = Action.from_dict(actions_item_data)

            actions.append(actions_item)

        analysis = Analysis.from_dict(d.pop("analysis"))

        answer = d.pop("answer")

        citations = []
        _citations = d.pop("citations")
        for citations_item_data in _citations:
            citations_item = Citation.from_dict(citations_item_data)

            citations.append(citations_item)

        generator = AnswerResponseGenerator(d.pop("generator"))

        sources = []
        _sources = d.pop("sources")
        for sources_item_data in _sources:
            sources_item = Source.from_dict(sources_item_data)

            sources.append(sources_item)

        usage = AnswerUsage.from_dict(d.pop("usage"))

        warnings = cast(list[str], d.pop("warnings"))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        answer_response = cls(
            actions=actions,
            analysis=analysis,
            answer=answer,
            citations=citations,
            generator=generator,
            sources=sources,
            usage=usage,
            warnings=warnings,
            model=model,
        )

        answer_response.additional_properties = d
        return answer_response

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
