from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.answer_mode import AnswerMode
from ..models.fusion import Fusion
from ..models.generator_choice import GeneratorChoice
from ..models.search_mode import SearchMode
from ..models.text_match import TextMatch
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.answer_request_filter_type_0 import AnswerRequestFilterType0
    from ..models.chat_turn import ChatTurn
    from ..models.mmr_options import MmrOptions


T = TypeVar("T", bound="AnswerRequest")


@_attrs_define
class AnswerRequest:
    """An answer from the knowledge base named in the path.

    Attributes:
        filter_ (AnswerRequestFilterType0 | None | Unset): Search's filter language (docs/search.md).
        fusion (Fusion | Unset):
        generator (GeneratorChoice | Unset):
        max_context_tokens (int | Unset): Budget of the numbered sources given to the generator (estimated tokens).
            Default: 3000.
        messages (list[ChatTurn] | None | Unset): An OpenAI-style chat history instead of `query`: its last user turn is
            the question, made standalone from the turns before it when an LLM is configured.
        min_similarity (float | Unset): Relevance floor: a passage is a source when it matched the question's words
            (full text) or its cosine similarity to the question reaches this. Default: 0.35.
        mmr (MmrOptions | None | Unset):
        mode (AnswerMode | Unset):
        query (None | str | Unset): The question.
        rerank (bool | Unset):  Default: False.
        search_mode (SearchMode | Unset):
        stream (bool | Unset): Answer as `text/event-stream` events instead of one JSON body. Default: False.
        text_match (TextMatch | Unset):
        top_k (int | Unset): Passages retrieved. Default: 8.
        vector_weight (float | Unset):  Default: 0.5.
    """

    filter_: AnswerRequestFilterType0 | None | Unset = UNSET
    fusion: Fusion | Unset = UNSET
    generator: GeneratorChoice | Unset = UNSET
    max_context_tokens: int | Unset = 3000
    messages: list[ChatTurn] | None | Unset = UNSET
    min_similarity: float | Unset = 0.35
    mmr: MmrOptions | None | Unset = UNSET
    mode: AnswerMode | Unset = UNSET
    query: None | str | Unset = UNSET
    rerank: bool | Unset = False
    search_mode: SearchMode | Unset = UNSET
    stream: bool | Unset = False
    text_match: TextMatch | Unset = UNSET
    top_k: int | Unset = 8
    vector_weight: float | Unset = 0.5

    def to_dict(self) -> dict[str, Any]:
        from ..models.answer_request_filter_type_0 import AnswerRequestFilterType0  # noqa: PLC0415
        from ..models.mmr_options import MmrOptions  # noqa: PLC0415

        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, AnswerRequestFilterType0):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        fusion: str | Unset = UNSET
        if not isinstance(self.fusion, Unset):
            fusion = self.fusion.value

        generator: str | Unset = UNSET
        if not isinstance(self.generator, Unset):
            generator = self.generator.value

        max_context_tokens = self.max_context_tokens

        messages: list[dict[str, Any]] | None | Unset
        if isinstance(self.messages, Unset):
            messages = UNSET
        elif isinstance(self.messages, list):
            messages = []
            for messages_type_0_item_data in self.messages:
                messages_type_0_item = messages_type_0_item_data.to_dict()
                messages.append(messages_type_0_item)

        else:
            messages = self.messages

        min_similarity = self.min_similarity

        mmr: dict[str, Any] | None | Unset
        if isinstance(self.mmr, Unset):
            mmr = UNSET
        elif isinstance(self.mmr, MmrOptions):
            mmr = self.mmr.to_dict()
        else:
            mmr = self.mmr

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        query: None | str | Unset
        if isinstance(self.query, Unset):
            query = UNSET
        else:
            query = self.query

        rerank = self.rerank

        search_mode: str | Unset = UNSET
        if not isinstance(self.search_mode, Unset):
            search_mode = self.search_mode.value

        stream = self.stream

        text_match: str | Unset = UNSET
        if not isinstance(self.text_match, Unset):
            text_match = self.text_match.value

        top_k = self.top_k

        vector_weight = self.vector_weight

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if fusion is not UNSET:
            field_dict["fusion"] = fusion
        if generator is not UNSET:
            field_dict["generator"] = generator
        if max_context_tokens is not UNSET:
            field_dict["max_context_tokens"] = max_context_tokens
        if messages is not UNSET:
            field_dict["messages"] = messages
        if min_similarity is not UNSET:
            field_dict["min_similarity"] = min_similarity
        if mmr is not UNSET:
            field_dict["mmr"] = mmr
        if mode is not UNSET:
            field_dict["mode"] = mode
        if query is not UNSET:
            field_dict["query"] = query
        if rerank is not UNSET:
            field_dict["rerank"] = rerank
        if search_mode is not UNSET:
            field_dict["search_mode"] = search_mode
        if stream is not UNSET:
            field_dict["stream"] = stream
        if text_match is not UNSET:
            field_dict["text_match"] = text_match
        if top_k is not UNSET:
            field_dict["top_k"] = top_k
        if vector_weight is not UNSET:
            field_dict["vector_weight"] = vector_weight

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.answer_request_filter_type_0 import AnswerRequestFilterType0  # noqa: PLC0415
        from ..models.chat_turn import ChatTurn  # noqa: PLC0415
        from ..models.mmr_options import MmrOptions  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_filter_(data: object) -> AnswerRequestFilterType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = AnswerRequestFilterType0.from_dict(data)

                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AnswerRequestFilterType0 | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))

        _fusion = d.pop("fusion", UNSET)
        fusion: Fusion | Unset
        if isinstance(_fusion, Unset):
            fusion = UNSET
        else:
            fusion = Fusion(_fusion)

        _generator = d.pop("generator", UNSET)
        generator: GeneratorChoice | Unset
        if isinstance(_generator, Unset):
            generator = UNSET
        else:
            generator = GeneratorChoice(_generator)

        max_context_tokens = d.pop("max_context_tokens", UNSET)

        def _parse_messages(data: object) -> list[ChatTurn] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                messages_type_0 = []
                _messages_type_0 = data
                for messages_type_0_item_data in _messages_type_0:
                    messages_type_0_item = ChatTurn.from_dict(messages_type_0_item_data)

                    messages_type_0.append(messages_type_0_item)

                return messages_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ChatTurn] | None | Unset, data)

        messages = _parse_messages(d.pop("messages", UNSET))

        min_similarity = d.pop("min_similarity", UNSET)

        def _parse_mmr(data: object) -> MmrOptions | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                mmr_type_0 = MmrOptions.from_dict(data)

                return mmr_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MmrOptions | None | Unset, data)

        mmr = _parse_mmr(d.pop("mmr", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: AnswerMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = AnswerMode(_mode)

        def _parse_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        query = _parse_query(d.pop("query", UNSET))

        rerank = d.pop("rerank", UNSET)

        _search_mode = d.pop("search_mode", UNSET)
        search_mode: SearchMode | Unset
        if isinstance(_search_mode, Unset):
            search_mode = UNSET
        else:
            search_mode = SearchMode(_search_mode)

        stream = d.pop("stream", UNSET)

        _text_match = d.pop("text_match", UNSET)
        text_match: TextMatch | Unset
        if isinstance(_text_match, Unset):
            text_match = UNSET
        else:
            text_match = TextMatch(_text_match)

        top_k = d.pop("top_k", UNSET)

        vector_weight = d.pop("vector_weight", UNSET)

        answer_request = cls(
            filter_=filter_,
            fusion=fusion,
            generator=generator,
            max_context_tokens=max_context_tokens,
            messages=messages,
            min_similarity=min_similarity,
            mmr=mmr,
            mode=mode,
            query=query,
            rerank=rerank,
            search_mode=search_mode,
            stream=stream,
            text_match=text_match,
            top_k=top_k,
            vector_weight=vector_weight,
        )

        return answer_request
