from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_delete_by_filter_filter import DocumentDeleteByFilterFilter


T = TypeVar("T", bound="DocumentDeleteByFilter")


@_attrs_define
class DocumentDeleteByFilter:
    """
    Attributes:
        filter_ (DocumentDeleteByFilterFilter): The filter language of search (docs/search.md) over document fields,
            `status` and `metadata.<key>`; at least one condition.
        dry_run (bool | Unset): Count the matches, delete nothing. Default: False.
    """

    filter_: DocumentDeleteByFilterFilter
    dry_run: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        filter_ = self.filter_.to_dict()

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "filter": filter_,
            }
        )
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_delete_by_filter_filter import DocumentDeleteByFilterFilter  # noqa: PLC0415

        d = dict(src_dict)
        filter_ = DocumentDeleteByFilterFilter.from_dict(d.pop("filter"))

        dry_run = d.pop("dry_run", UNSET)

        document_delete_by_filter = cls(
            filter_=filter_,
            dry_run=dry_run,
        )

        return document_delete_by_filter
