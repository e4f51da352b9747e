"""The embedder factory the app was built with (tests swap in a deterministic one)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.chunks.embedding import EmbedderFactory


def get_embedder_factory(request: Request) -> EmbedderFactory:
    factory: EmbedderFactory = request.app.state.embedder_factory
    return factory


EmbedderFactoryDep = Annotated[EmbedderFactory, Depends(get_embedder_factory)]
