from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.knowledge_base_read import KnowledgeBaseRead


T = TypeVar("T", bound="KnowledgeBaseCopied")


@_attrs_define
class KnowledgeBaseCopied:
    """
    Attributes:
        chunks_to_embed (int): Chunks of documents without a tree (the chunk API's), copied without vectors; the `embed`
            job gives them the new model's.
        documents (int): Documents copied.
        knowledge_base (KnowledgeBaseRead):
        not_copied (int): Documents left out: not ready (still being ingested, or failed), or not readable by the
            caller.
        queued (int): Of them, those with a tree: queued to be chunked and embedded again (watch their `status`, or `GET
            .../documents?status=queued`).
        embed_job_id (None | Unset | UUID):
    """

    chunks_to_embed: int
    documents: int
    knowledge_base: KnowledgeBaseRead
    not_copied: int
    queued: int
    embed_job_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunks_to_embed = self.chunks_to_embed

        documents = self.documents

        knowledge_base = self.knowledge_base.to_dict()

        not_copied = self.not_copied

        queued = self.queued

        embed_job_id: None | str | Unset
        if isinstance(self.embed_job_id, Unset):
            embed_job_id = UNSET
        elif isinstance(self.embed_job_id, UUID):
            embed_job_id = str(self.embed_job_id)
        else:
            embed_job_id = self.embed_job_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunks_to_embed": chunks_to_embed,
                "documents": documents,
                "knowledge_base": knowledge_base,
                "not_copied": not_copied,
                "queued": queued,
            }
        )
        if embed_job_id is not UNSET:
            field_dict["embed_job_id"] = embed_job_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.knowledge_base_read import KnowledgeBaseRead  # noqa: PLC0415

        d = dict(src_dict)
        chunks_to_embed = d.pop("chunks_to_embed")

        documents = d.pop("documents")

        knowledge_base = KnowledgeBaseRead.from_dict(d.pop("knowledge_base"))

        not_copied = d.pop("not_copied")

        queued = d.pop("queued")

        def _parse_embed_job_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                embed_job_id_type_0 = UUID(data)

                return embed_job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        embed_job_id = _parse_embed_job_id(d.pop("embed_job_id", UNSET))

        knowledge_base_copied = cls(
            chunks_to_embed=chunks_to_embed,
            documents=documents,
            knowledge_base=knowledge_base,
            not_copied=not_copied,
            queued=queued,
            embed_job_id=embed_job_id,
        )

        knowledge_base_copied.additional_properties = d
        return knowledge_base_copied

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
