from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.chunk_read import ChunkRead
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    chunk_id: UUID,
    *,
    include_vector: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["include_vector"] = include_vector

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/knowledge-bases/{kb}/chunks/{chunk_id}".format(
            kb=quote(str(kb), safe=""),
            chunk_id=quote(str(chunk_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChunkRead | Problem | None:
    if response.status_code == 200:
        response_200 = ChunkRead.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChunkRead | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kb: str,
    chunk_id: UUID,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
) -> Response[ChunkRead | Problem]:
    """Get one chunk

    Args:
        kb (str): The knowledge base's id or name.
        chunk_id (UUID):
        include_vector (bool | Unset): Return the vector too. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChunkRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        chunk_id=chunk_id,
        include_vector=include_vector,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    chunk_id: UUID,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
) -> ChunkRead | Problem | None:
    """Get one chunk

    Args:
        kb (str): The knowledge base's id or name.
        chunk_id (UUID):
        include_vector (bool | Unset): Return the vector too. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChunkRead | Problem
    """

    return sync_detailed(
        kb=kb,
        chunk_id=chunk_id,
        client=client,
        include_vector=include_vector,
    ).parsed


async def asyncio_detailed(
    kb: str,
    chunk_id: UUID,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
) -> Response[ChunkRead | Problem]:
    """Get one chunk

    Args:
        kb (str): The knowledge base's id or name.
        chunk_id (UUID):
        include_vector (bool | Unset): Return the vector too. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChunkRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        chunk_id=chunk_id,
        include_vector=include_vector,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    chunk_id: UUID,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
) -> ChunkRead | Problem | None:
    """Get one chunk

    Args:
        kb (str): The knowledge base's id or name.
        chunk_id (UUID):
        include_vector (bool | Unset): Return the vector too. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChunkRead | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            chunk_id=chunk_id,
            client=client,
            include_vector=include_vector,
        )
    ).parsed
