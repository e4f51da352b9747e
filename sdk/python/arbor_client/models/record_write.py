from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.record_write_op import RecordWriteOp
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_access import DocumentAccess
    from ..models.record_write_fields_type_0 import RecordWriteFieldsType0
    from ..models.record_write_metadata import RecordWriteMetadata


T = TypeVar("T", bound="RecordWrite")


@_attrs_define
class RecordWrite:
    """
    Attributes:
        op (RecordWriteOp):
        record_id (str):
        access (DocumentAccess | None | Unset): Overrides the source's `access` for this record.
        content (None | str | Unset): The record's text.
        fields (None | RecordWriteFieldsType0 | Unset): Or its fields, written as sections `## name` then value.
        metadata (RecordWriteMetadata | Unset):
        title (None | str | Unset):
    """

    op: RecordWriteOp
    record_id: str
    access: DocumentAccess | None | Unset = UNSET
    content: None | str | Unset = UNSET
    fields: None | RecordWriteFieldsType0 | Unset = UNSET
    metadata: RecordWriteMetadata | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.record_write_fields_type_0 import RecordWriteFieldsType0  # noqa: PLC0415

        op = self.op.value

        record_id = self.record_id

        access: dict[str, Any] | None | Unset
        if isinstance(self.access, Unset):
            access = UNSET
        elif isinstance(self.access, DocumentAccess):
            access = self.access.to_dict()
        else:
            access = self.access

        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

        fields: dict[str, Any] | None | Unset
        if isinstance(self.fields, Unset):
            fields = UNSET
        elif isinstance(self.fields, RecordWriteFieldsType0):
            fields = self.fields.to_dict()
        else:
            fields = self.fields

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "op": op,
                "record_id": record_id,
            }
        )
        if access is not UNSET:
            field_dict["access"] = access
        if content is not UNSET:
            field_dict["content"] = content
        if fields is not UNSET:
            field_dict["fields"] = fields
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_access import DocumentAccess  # noqa: PLC0415
        from ..models.record_write_fields_type_0 import RecordWriteFieldsType0  # noqa: PLC0415
        from ..models.record_write_metadata import RecordWriteMetadata  # noqa: PLC0415

        d = dict(src_dict)
        op = RecordWriteOp(d.pop("op"))

        record_id = d.pop("record_id")

        def _parse_access(data: object) -> DocumentAccess | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                access_type_0 = DocumentAccess.from_dict(data)

                return access_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentAccess | None | Unset, data)

        access = _parse_access(d.pop("access", UNSET))

        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        def _parse_fields(data: object) -> None | RecordWriteFieldsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fields_type_0 = RecordWriteFieldsType0.from_dict(data)

                return fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecordWriteFieldsType0 | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: RecordWriteMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = RecordWriteMetadata.from_dict(_metadata)

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        record_write = cls(
            op=op,
            record_id=record_id,
            access=access,
            content=content,
            fields=fields,
            metadata=metadata,
            title=title,
        )

        return record_write
