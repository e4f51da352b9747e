from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.common_lexeme import CommonLexeme


T = TypeVar("T", bound="TextStatisticsRead")


@_attrs_define
class TextStatisticsRead:
    """What full-text pruning knows of a knowledge base (docs/search.md), as the caller sees it.

    Attributes:
        chunk_count (int): Chunks now.
        counted_chunks (int | None): Chunks when the statistics were counted.
        lexemes (int): Lexemes counted.
        match_budget (int): Query lexemes define candidates, rarest first, while their summed document frequencies stay
            within this many chunks; the rest only score.
        min_df (int | None): Lexemes held by fewer chunks are not counted.
        most_common (list[CommonLexeme]): The 20 most common lexemes; empty when `most_common_withheld` is set.
        pruning (bool): Whether unfiltered searches prune now: statistics exist and the knowledge base holds more chunks
            than the budget.
        refreshed_at (datetime.datetime | None):
        stale (bool): A refresh is due (search queues it).
        most_common_withheld (None | str | Unset): Why `most_common` is empty although lexemes were counted: some
            document of the knowledge base is hidden from the caller by its access list, and the counted lexemes may include
            that document's words. Null when nothing is withheld (callers who can read every document, admins).
    """

    chunk_count: int
    counted_chunks: int | None
    lexemes: int
    match_budget: int
    min_df: int | None
    most_common: list[CommonLexeme]
    pruning: bool
    refreshed_at: datetime.datetime | None
    stale: bool
    most_common_withheld: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_count = self.chunk_count

        counted_chunks: int | None
        counted_chunks = self.counted_chunks

        lexemes = self.lexemes

        match_budget = self.match_budget

        min_df: int | None
        min_df = self.min_df

        most_common = []
        for most_common_item_data in self.most_common:
            most_common_item = most_common_item_data.to_dict()
            most_common.append(most_common_item)

        pruning = self.pruning

        refreshed_at: None | str
        if isinstance(self.refreshed_at, datetime.datetime):
            refreshed_at = self.refreshed_at.isoformat()
        else:
            refreshed_at = self.refreshed_at

        stale = self.stale

        most_common_withheld: None | str | Unset
        if isinstance(self.most_common_withheld, Unset):
            most_common_withheld = UNSET
        else:
            most_common_withheld = self.most_common_withheld

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_count": chunk_count,
                "counted_chunks": counted_chunks,
                "lexemes": lexemes,
                "match_budget": match_budget,
                "min_df": min_df,
                "most_common": most_common,
                "pruning": pruning,
                "refreshed_at": refreshed_at,
                "stale": stale,
            }
        )
        if most_common_withheld is not UNSET:
            field_dict["most_common_withheld"] = most_common_withheld

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.common_lexeme import CommonLexeme  # noqa: PLC0415

        d = dict(src_dict)
        chunk_count = d.pop("chunk_count")

        def _parse_counted_chunks(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        counted_chunks = _parse_counted_chunks(d.pop("counted_chunks"))

        lexemes = d.pop("lexemes")

        match_budget = d.pop("match_budget")

        def _parse_min_df(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        min_df = _parse_min_df(d.pop("min_df"))

        most_common = []
        _most_common = d.pop("most_common")
        for most_common_item_data in _most_common:
            most_common_item = CommonLexeme.from_dict(most_common_item_data)

            most_common.append(most_common_item)

        pruning = d.pop("pruning")

        def _parse_refreshed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                refreshed_at_type_0 = datetime.datetime.fromisoformat(data)

                return refreshed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        refreshed_at = _parse_refreshed_at(d.pop("refreshed_at"))

        stale = d.pop("stale")

        def _parse_most_common_withheld(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        most_common_withheld = _parse_most_common_withheld(d.pop("most_common_withheld", UNSET))

        text_statistics_read = cls(
            chunk_count=chunk_count,
            counted_chunks=counted_chunks,
            lexemes=lexemes,
            match_budget=match_budget,
            min_df=min_df,
            most_common=most_common,
            pruning=pruning,
            refreshed_at=refreshed_at,
            stale=stale,
            most_common_withheld=most_common_withheld,
        )

        text_statistics_read.additional_properties = d
        return text_statistics_read

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
