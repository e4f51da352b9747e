from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.chat_turn_role import ChatTurnRole

T = TypeVar("T", bound="ChatTurn")


@_attrs_define
class ChatTurn:
    """
    Attributes:
        content (str):
        role (ChatTurnRole):
    """

    content: str
    role: ChatTurnRole

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "content": content,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        role = ChatTurnRole(d.pop("role"))

        chat_turn = cls(
            content=content,
            role=role,
        )

        return chat_turn
