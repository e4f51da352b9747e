from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.record_result_op import RecordResultOp
from ..models.record_result_result import RecordResultResult

T = TypeVar("T", bound="RecordResult")


@_attrs_define
class RecordResult:
    """
    Attributes:
        document_id (None | UUID):
        op (RecordResultOp):
        record_id (str):
        result (RecordResultResult):
    """

    document_id: None | UUID
    op: RecordResultOp
    record_id: str
    result: RecordResultResult
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_id: None | str
        if isinstance(self.document_id, UUID):
            document_id = str(self.document_id)
        else:
            document_id = self.document_id

        op = self.op.value

        record_id = self.record_id

        result = self.result.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "document_id": document_id,
                "op": op,
                "record_id": record_id,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_document_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                document_id_type_0 = UUID(data)

                return document_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        document_id = _parse_document_id(d.pop("document_id"))

        op = RecordResultOp(d.pop("op"))

        record_id = d.pop("record_id")

        result = RecordResultResult(d.pop("result"))

        record_result = cls(
            document_id=document_id,
            op=op,
            record_id=record_id,
            result=result,
        )

        record_result.additional_properties = d
        return record_result

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
