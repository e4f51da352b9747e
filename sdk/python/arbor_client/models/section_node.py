from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.node_enrichment import NodeEnrichment
    from ..models.node_range import NodeRange
    from ..models.paragraph_node import ParagraphNode
    from ..models.sentence_node import SentenceNode
    from ..models.topic_node import TopicNode


T = TypeVar("T", bound="SectionNode")


@_attrs_define
class SectionNode:
    """A heading and everything under it up to the next heading of the same or higher level.

    Attributes:
        level (int):
        node_id (str):
        range_ (NodeRange): A half-open `[start_offset, end_offset)` range of code points in the extracted text.
        text (str):
        title (str):
        children (list[ParagraphNode | SectionNode | SentenceNode | TopicNode] | Unset):
        confidence (float | None | Unset): OCR only.
        enrichment (NodeEnrichment | None | Unset):
        kind (Literal['section'] | Unset):  Default: 'section'.
        page_end (int | None | Unset):
        page_start (int | None | Unset):
    """

    level: int
    node_id: str
    range_: NodeRange
    text: str
    title: str
    children: list[ParagraphNode | SectionNode | SentenceNode | TopicNode] | Unset = UNSET
    confidence: float | None | Unset = UNSET
    enrichment: NodeEnrichment | None | Unset = UNSET
    kind: Literal["section"] | Unset = "section"
    page_end: int | None | Unset = UNSET
    page_start: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.node_enrichment import NodeEnrichment  # noqa: PLC0415
        from ..models.paragraph_node import ParagraphNode  # noqa: PLC0415
        from ..models.topic_node import TopicNode  # noqa: PLC0415

        level = self.level

        node_id = self.node_id

        range_ = self.range_.to_dict()

        text = self.text

        title = self.title

        children: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.children, Unset):
            children = []
            for children_item_data in self.children:
                children_item: dict[str, Any]
                if isinstance(children_item_data, SectionNode):
                    children_item = children_item_data.to_dict()
                elif isinstance(children_item_data, TopicNode):
                    children_item = children_item_data.to_dict()
                elif isinstance(children_item_data, ParagraphNode):
                    children_item = children_item_data.to_dict()
                else:
                    children_item = children_item_data.to_dict()

                children.append(children_item)

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
                "level": level,
                "node_id": node_id,
                "range": range_,
                "text": text,
                "title": title,
            }
        )
        if children is not UNSET:
            field_dict["children"] = children
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
        from ..models.paragraph_node import ParagraphNode  # noqa: PLC0415
        from ..models.sentence_node import SentenceNode  # noqa: PLC0415
        from ..models.topic_node import TopicNode  # noqa: PLC0415

        d = dict(src_dict)
        level = d.pop("level")

        node_id = d.pop("node_id")

        range_ = NodeRange.from_dict(d.pop("range"))

        text = d.pop("text")

        title = d.pop("title")

        _children = d.pop("children", UNSET)
        children: list[ParagraphNode | SectionNode | SentenceNode | TopicNode] | Unset = UNSET
        if _children is not UNSET:
            children = []
            for children_item_data in _children:

                def _parse_children_item(data: object) -> ParagraphNode | SectionNode | SentenceNode | TopicNode:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        children_item_type_0 = SectionNode.from_dict(data)

                        return children_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        children_item_type_1 = TopicNode.from_dict(data)

                        return children_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        children_item_type_2 = ParagraphNode.from_dict(data)

                        return children_item_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    children_item_type_3 = SentenceNode.from_dict(data)

                    return children_item_type_3

                children_item = _parse_children_item(children_item_data)

                children.append(children_item)

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

        kind = cast(Literal["section"] | Unset, d.pop("kind", UNSET))
        if kind != "section" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'section', got '{kind}'")

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

        section_node = cls(
            level=level,
            node_id=node_id,
            range_=range_,
            text=text,
            title=title,
            children=children,
            confidence=confidence,
            enrichment=enrichment,
            kind=kind,
            page_end=page_end,
            page_start=page_start,
        )

        return section_node
