"""Flags on route functions that the request's machinery reads once routing has chosen one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.types import Scope

F = TypeVar("F", bound=Callable[..., Any])


class EndpointFlag:
    """A decorator that marks a route's function, and the test of whether a request's route
    has the mark (Starlette puts the chosen function in the scope as `endpoint`)."""

    def __init__(self, name: str) -> None:
        self.attribute = f"_arbor_{name}"

    def __call__(self, endpoint: F) -> F:
        setattr(endpoint, self.attribute, True)
        return endpoint

    def marks(self, scope: Scope) -> bool:
        return bool(getattr(scope.get("endpoint"), self.attribute, False))
