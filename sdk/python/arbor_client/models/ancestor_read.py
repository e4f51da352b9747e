from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.node_kind import NodeKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.node_enrichment import NodeEnrichment
    from ..models.node_range import NodeRange


T = TypeVar("T", bound="AncestorRead")


@_attrs_define
class AncestorRead:
    """A node without its subtree: a step on the way from the root to another node.

    Attributes:
        kind (NodeKind): The kinds of node a document tree holds.
        node_id (str):
        range_ (NodeRange): A half-open `[start_offset, end_offset)` range of code points in the extracted text.
        text (str):
        enrichment (NodeEnrichment | None | Unset):
        level (int | None | Unset):
        page_end (int | None | Unset):
        page_start (int | None | Unset):
        title (None | str | Unset):
    """

    kind: NodeKind
    node_id: str
    range_: NodeRange
    text: str
    enrichment: NodeEnrichment | None | Unset = UNSET
    level: int | None | Unset = UNSET
    page_end: int | None | Unset = UNSET
    page_start: int | None | Unset = UNSET
    title: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.node_enrichment import NodeEnrichment  # noqa: PLC0415

        kind = self.kind.value

        node_id = self.node_id

        range_ = self.range_.to_dict()

        text = self.text

        enrichment: dict[str, Any] | None | Unset
        if isinstance(self.enrichment, Unset):
            enrichment = UNSET
        elif isinstance(self.enrichment, NodeEnrichment):
            enrichment = self.enrichment.to_dict()
        else:
            enrichment = self.enrichment

        level: int | None | Unset
        if isinstance(self.level, Unset):
            level = UNSET
        else:
            level = self.level

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

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "node_id": node_id,
                "range": range_,
                "text": text,
            }
        )
        if enrichment is not UNSET:
            field_dict["enrichment"] = enrichment
        if level is not UNSET:
            field_dict["level"] = level
        if page_end is not UNSET:
            field_dict["page_end"] = page_end
        if page_start is not UNSET:
            field_dict["page_start"] = page_start
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.node_enrichment import NodeEnrichment  # noqa: PLC0415
        from ..models.node_range import NodeRange  # noqa: PLC0415

        d = dict(src_dict)
        kind = NodeKind(d.pop("kind"))

        node_id = d.pop("node_id")

        range_ = NodeRange.from_dict(d.pop("range"))

        text = d.pop("text")

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

        def _parse_level(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        level = _parse_level(d.pop("level", UNSET))

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

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        ancestor_read = cls(
            kind=kind,
            node_id=node_id,
            range_=range_,
            text=text,
            enrichment=enrichment,
            level=level,
            page_end=page_end,
            page_start=page_start,
            title=title,
        )

        ancestor_read.additional_properties = d
        return ancestor_read

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
