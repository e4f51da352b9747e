"""Reuse FastAPI's per-app build of included routes across the apps of one test process.

FastAPI (0.13x and later) builds each route of an included router for every app, on that
app's first request to the router: the endpoint's signature analysed, its models' validators
made. A service process pays it once; the suite starts an app per test and paid it per test,
0.1-0.2 s each. Arbor's routers are module-level and included the same way by every app
(`app.main.create_app`: no per-app prefix, dependencies or overrides), so what the first app
built serves the rest. A FastAPI without the private hook is left as it is: the suite is then
slower, not wrong.
"""

from __future__ import annotations

from typing import Any

from fastapi import routing

_built: dict[tuple[int, str], Any] = {}


def install() -> bool:
    """Patch the hook; False when this FastAPI has none (nothing to reuse)."""
    context_class = getattr(routing, "_EffectiveRouteContext", None)
    build = getattr(context_class, "from_api_route", None)
    if context_class is None or build is None or getattr(build, "reused", False):
        return False
    original = build.__func__

    def from_api_route(cls: type, *, original_route: Any, include_context: Any) -> Any:
        provider = include_context.dependency_overrides_provider
        if getattr(provider, "dependency_overrides", None):
            # An app with overrides gets routes of its own: a reused route reads the first's.
            return original(cls, original_route=original_route, include_context=include_context)
        key = (id(original_route), include_context.prefix)
        built = _built.get(key)
        if built is None:
            built = _built[key] = original(
                cls, original_route=original_route, include_context=include_context
            )
        return built

    from_api_route.reused = True  # type: ignore[attr-defined]
    context_class.from_api_route = classmethod(from_api_route)
    return True
