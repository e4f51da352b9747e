from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.node_enrichment import NodeEnrichment
    from ..models.node_range import NodeRange


T = TypeVar("T", bound="SentenceNode")


@_attrs_define
class SentenceNode:
    """A sentence inside a paragraph; always a leaf.

    Attributes:
        node_id (str):
        range_ (NodeRange): A half-open `[start_offset, end_offset)` range of code points in the extracted text.
        text (str):
        confidence (float | None | Unset): OCR only.
        enrichment (NodeEnrichment | None | Unset):
        kind (Literal['sentence'] | Unset):  Default: 'sentence'.
        page_end (int | None | Unset):
        page_start (int | None | Unset):
    """

    node_id: str
    range_: NodeRange
    text: str
    confidence: float | None | Unset = UNSET
    enrichment: NodeEnrichment | None | Unset = UNSET
    kind: Literal["sentence"] | Unset = "sentence"
    page_end: int | None | Unset = UNSET
    page_start: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.node_enrichment import NodeEnrichment  # noqa: PLC0415

        node_id = self.node_id

        range_ = self.range_.to_dict()

        text = self.text

        confidence: float | None | Unset
        if isinstance(self.confidence, Unset):
            confidence = UNSET
        else:
            confidence = self.confidence

        enrichment: dict[str, Any] | None | Unset
        if isinstance(self.enrichment, Unset):
            enrichment = UNSET
        elif isinstance(self.enrichment, NodeEnrichment):
            enrichment = self.enrichment.to_dict()
        else:
            enrichment = self.enrichment

        kind = self.kind

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "node_id": node_id,
                "range": range_,
                "text": text,
            }
        )
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if enrichment is not UNSET:
            field_dict["enrichment"] = enrichment
        if kind is not UNSET:
            field_dict["kind"] = kind
        if page_end is not UNSET:
            field_dict["page_end"] = page_end
        if page_start is not UNSET:
            field_dict["page_start"] = page_start

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.node_enrichment import NodeEnrichment  # noqa: PLC0415
        from ..models.node_range import NodeRange  # noqa: PLC0415

        d = dict(src_dict)
        node_id = d.pop("node_id")

        range_ = NodeRange.from_dict(d.pop("range"))

        text = d.pop("text")

        def _parse_confidence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        confidence = _parse_confidence(d.pop("confidence", UNSET))

        def _parse_enrichment(data: object) -> NodeEnrichment | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                enrichment_type_0 = NodeEnrichment.from_dict(data)

                return enrichment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NodeEnrichment | None | Unset, data)

        enrichment = _parse_enrichment(d.pop("enrichment", UNSET))

        kind = cast(Literal["sentence"] | Unset, d.pop("kind", UNSET))
        if kind != "sentence" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'sentence', got '{kind}'")

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

        sentence_node = cls(
            node_id=node_id,
            range_=range_,
            text=text,
            confidence=confidence,
            enrichment=enrichment,
            kind=kind,
            page_end=page_end,
            page_start=page_start,
        )

        return sentence_node
