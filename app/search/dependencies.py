"""The reranker the app uses: `app.state.reranker` if set (tests), else from the environment."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.search.rerank import Reranker, reranker_from_env

_UNSET = object()


def get_reranker(request: Request) -> Reranker | None:
    state = request.app.state
    reranker = getattr(state, "reranker", _UNSET)
    if reranker is _UNSET:
        reranker = reranker_from_env()
        state.reranker = reranker
    return reranker  # type: ignore[return-value]


RerankerDep = Annotated[Reranker | None, Depends(get_reranker)]
