from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.parse_request_format_type_0 import ParseRequestFormatType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.parse_request_chunking_type_0 import ParseRequestChunkingType0


T = TypeVar("T", bound="ParseRequest")


@_attrs_define
class ParseRequest:
    """Text to parse (markdown or plain); files go through multipart.

    Attributes:
        text (str): The document's text.
        chunking (None | ParseRequestChunkingType0 | Unset): Overrides the knowledge base's chunking, as an upload's
            `chunking` does; needs `knowledge_base`.
        format_ (None | ParseRequestFormatType0 | Unset): Detected when absent: markdown when the text has an ATX
            heading or a code fence, else text (as uploads detect it).
        knowledge_base (None | str | Unset): A knowledge base (id or name) of the caller's: also cut the document into
            the chunks an upload to it would get, with its chunking settings and its embedder's tokenizer.
        title (None | str | Unset):
    """

    text: str
    chunking: None | ParseRequestChunkingType0 | Unset = UNSET
    format_: None | ParseRequestFormatType0 | Unset = UNSET
    knowledge_base: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.parse_request_chunking_type_0 import ParseRequestChunkingType0  # noqa: PLC0415

        text = self.text

        chunking: dict[str, Any] | None | Unset
        if isinstance(self.chunking, Unset):
            chunking = UNSET
        elif isinstance(self.chunking, ParseRequestChunkingType0):
            chunking = self.chunking.to_dict()
        else:
            chunking = self.chunking

        format_: None | str | Unset
        if isinstance(self.format_, Unset):
            format_ = UNSET
        elif isinstance(self.format_, ParseRequestFormatType0):
            format_ = self.format_.value
        else:
            format_ = self.format_

        knowledge_base: None | str | Unset
        if isinstance(self.knowledge_base, Unset):
            knowledge_base = UNSET
        else:
            knowledge_base = self.knowledge_base

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
            }
        )
        if chunking is not UNSET:
            field_dict["chunking"] = chunking
        if format_ is not UNSET:
            field_dict["format"] = format_
        if knowledge_base is not UNSET:
            field_dict["knowledge_base"] = knowledge_base
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.parse_request_chunking_type_0 import ParseRequestChunkingType0  # noqa: PLC0415

        d = dict(src_dict)
        text = d.pop("text")

        def _parse_chunking(data: object) -> None | ParseRequestChunkingType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                chunking_type_0 = ParseRequestChunkingType0.from_dict(data)

                return chunking_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ParseRequestChunkingType0 | Unset, data)

        chunking = _parse_chunking(d.pop("chunking", UNSET))

        def _parse_format_(data: object) -> None | ParseRequestFormatType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                format_type_0 = ParseRequestFormatType0(data)

                return format_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ParseRequestFormatType0 | Unset, data)

        format_ = _parse_format_(d.pop("format", UNSET))

        def _parse_knowledge_base(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        knowledge_base = _parse_knowledge_base(d.pop("knowledge_base", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        parse_request = cls(
            text=text,
            chunking=chunking,
            format_=format_,
            knowledge_base=knowledge_base,
            title=title,
        )

        return parse_request
