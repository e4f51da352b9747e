from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="HitExplain")


@_attrs_define
class HitExplain:
    """How a hit's score came about. With weighted hybrid fusion, `score` (`fused_score`) is
    `vector_weight * vector_normalized + (1 - vector_weight) * text_normalized`.

        Attributes:
            fused_score (float | None | Unset):
            mmr_rank (int | None | Unset):
            rerank_score (float | None | Unset):
            text_match (None | str | Unset): `fulltext` or `trigram`.
            text_normalized (float | None | Unset): Weighted hybrid fusion: text_score min-max normalised over every
                candidate of both sides, in [0, 1].
            text_rank (int | None | Unset): 1-based rank on the text side; null when not among its candidates.
            text_score (float | None | Unset): Text score (docs/search.md). With weighted hybrid fusion, also for a chunk
                that was not a text candidate (0 when it holds no query term), as fusion used it.
            vector_normalized (float | None | Unset): Weighted hybrid fusion: vector_similarity min-max normalised over
                every candidate of both sides, in [0, 1].
            vector_rank (int | None | Unset): 1-based rank on the vector side; null when not among its candidates.
            vector_similarity (float | None | Unset): Cosine similarity. With weighted hybrid fusion, also for a chunk that
                was not a vector candidate (computed from its stored vector, as fusion used it).
    """

    fused_score: float | None | Unset = UNSET
    mmr_rank: int | None | Unset = UNSET
    rerank_score: float | None | Unset = UNSET
    text_match: None | str | Unset = UNSET
    text_normalized: float | None | Unset = UNSET
    text_rank: int | None | Unset = UNSET
    text_score: float | None | Unset = UNSET
    vector_normalized: float | None | Unset = UNSET
    vector_rank: int | None | Unset = UNSET
    vector_similarity: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fused_score: float | None | Unset
        if isinstance(self.fused_score, Unset):
            fused_score = UNSET
        else:
            fused_score = self.fused_score

        mmr_rank: int | None | Unset
        if isinstance(self.mmr_rank, Unset):
            mmr_rank = UNSET
        else:
            mmr_rank = self.mmr_rank

        rerank_score: float | None | Unset
        if isinstance(self.rerank_score, Unset):
            rerank_score = UNSET
        else:
            rerank_score = self.rerank_score

        text_match: None | str | Unset
        if isinstance(self.text_match, Unset):
            text_match = UNSET
        else:
            text_match = self.text_match

        text_normalized: float | None | Unset
        if isinstance(self.text_normalized, Unset):
            text_normalized = UNSET
        else:
            text_normalized = self.text_normalized

        text_rank: int | None | Unset
        if isinstance(self.text_rank, Unset):
            text_rank = UNSET
        else:
            text_rank = self.text_rank

        text_score: float | None | Unset
        if isinstance(self.text_score, Unset):
            text_score = UNSET
        else:
            text_score = self.text_score

        vector_normalized: float | None | Unset
        if isinstance(self.vector_normalized, Unset):
            vector_normalized = UNSET
        else:
            vector_normalized = self.vector_normalized

        vector_rank: int | None | Unset
        if isinstance(self.vector_rank, Unset):
            vector_rank = UNSET
        else:
            vector_rank = self.vector_rank

        vector_similarity: float | None | Unset
        if isinstance(self.vector_similarity, Unset):
            vector_similarity = UNSET
        else:
            vector_similarity = self.vector_similarity

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if fused_score is not UNSET:
            field_dict["fused_score"] = fused_score
        if mmr_rank is not UNSET:
            field_dict["mmr_rank"] = mmr_rank
        if rerank_score is not UNSET:
            field_dict["rerank_score"] = rerank_score
        if text_match is not UNSET:
            field_dict["text_match"] = text_match
        if text_normalized is not UNSET:
            field_dict["text_normalized"] = text_normalized
        if text_rank is not UNSET:
            field_dict["text_rank"] = text_rank
        if text_score is not UNSET:
            field_dict["text_score"] = text_score
        if vector_normalized is not UNSET:
            field_dict["vector_normalized"] = vector_normalized
        if vector_rank is not UNSET:
            field_dict["vector_rank"] = vector_rank
        if vector_similarity is not UNSET:
            field_dict["vector_similarity"] = vector_similarity

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_fused_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        fused_score = _parse_fused_score(d.pop("fused_score", UNSET))

        def _parse_mmr_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        mmr_rank = _parse_mmr_rank(d.pop("mmr_rank", UNSET))

        def _parse_rerank_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        rerank_score = _parse_rerank_score(d.pop("rerank_score", UNSET))

        def _parse_text_match(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text_match = _parse_text_match(d.pop("text_match", UNSET))

        def _parse_text_normalized(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        text_normalized = _parse_text_normalized(d.pop("text_normalized", UNSET))

        def _parse_text_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        text_rank = _parse_text_rank(d.pop("text_rank", UNSET))

        def _parse_text_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        text_score = _parse_text_score(d.pop("text_score", UNSET))

        def _parse_vector_normalized(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        vector_normalized = _parse_vector_normalized(d.pop("vector_normalized", UNSET))

        def _parse_vector_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        vector_rank = _parse_vector_rank(d.pop("vector_rank", UNSET))

        def _parse_vector_similarity(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        vector_similarity = _parse_vector_similarity(d.pop("vector_similarity", UNSET))

        hit_explain = cls(
            fused_score=fused_score,
            mmr_rank=mmr_rank,
            rerank_score=rerank_score,
            text_match=text_match,
            text_normalized=text_normalized,
            text_rank=text_rank,
            text_score=text_score,
            vector_normalized=vector_normalized,
            vector_rank=vector_rank,
            vector_similarity=vector_similarity,
        )

        hit_explain.additional_properties = d
        return hit_explain

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
