from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dify_metadata_condition import DifyMetadataCondition
    from ..models.dify_retrieval_setting import DifyRetrievalSetting


T = TypeVar("T", bound="DifyRetrievalRequest")


@_attrs_define
class DifyRetrievalRequest:
    """Dify's request; fields it may add later are ignored rather than refused.

    Attributes:
        knowledge_id (str): An Arbor knowledge base: its id or its name.
        query (str):
        retrieval_setting (DifyRetrievalSetting):
        metadata_condition (DifyMetadataCondition | None | Unset):
    """

    knowledge_id: str
    query: str
    retrieval_setting: DifyRetrievalSetting
    metadata_condition: DifyMetadataCondition | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.dify_metadata_condition import DifyMetadataCondition  # noqa: PLC0415

        knowledge_id = self.knowledge_id

        query = self.query

        retrieval_setting = self.retrieval_setting.to_dict()

        metadata_condition: dict[str, Any] | None | Unset
        if isinstance(self.metadata_condition, Unset):
            metadata_condition = UNSET
        elif isinstance(self.metadata_condition, DifyMetadataCondition):
            metadata_condition = self.metadata_condition.to_dict()
        else:
            metadata_condition = self.metadata_condition

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "knowledge_id": knowledge_id,
                "query": query,
                "retrieval_setting": retrieval_setting,
            }
        )
        if metadata_condition is not UNSET:
            field_dict["metadata_condition"] = metadata_condition

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dify_metadata_condition import DifyMetadataCondition  # noqa: PLC0415
        from ..models.dify_retrieval_setting import DifyRetrievalSetting  # noqa: PLC0415

        d = dict(src_dict)
        knowledge_id = d.pop("knowledge_id")

        query = d.pop("query")

        retrieval_setting = DifyRetrievalSetting.from_dict(d.pop("retrieval_setting"))

        def _parse_metadata_condition(data: object) -> DifyMetadataCondition | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_condition_type_0 = DifyMetadataCondition.from_dict(data)

                return metadata_condition_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DifyMetadataCondition | None | Unset, data)

        metadata_condition = _parse_metadata_condition(d.pop("metadata_condition", UNSET))

        dify_retrieval_request = cls(
            knowledge_id=knowledge_id,
            query=query,
            retrieval_setting=retrieval_setting,
            metadata_condition=metadata_condition,
        )

        dify_retrieval_request.additional_properties = d
        return dify_retrieval_request

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
