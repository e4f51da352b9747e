from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.chunk_bulk_result import ChunkBulkResult
from ...models.chunk_bulk_upsert import ChunkBulkUpsert
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    *,
    body: ChunkBulkUpsert,
    defer_index: bool | Unset = False,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["defer_index"] = defer_index

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/knowledge-bases/{kb}/chunks/bulk".format(
            kb=quote(str(kb), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ChunkBulkResult | Problem | None:
    if response.status_code == 200:
        response_200 = ChunkBulkResult.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ChunkBulkResult | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: ChunkBulkUpsert,
    defer_index: bool | Unset = False,
) -> Response[ChunkBulkResult | Problem]:
    """Create or replace many chunks at once, all or nothing

     Chunk ids are unique within the knowledge base: another knowledge base, of this project or another,
    may hold the same id, and writing it here never touches that chunk. An id held here by a chunk of a
    document the caller may not read is refused with 409 `chunk-id-in-use`, and nothing is written.

    Chunks sent without a vector are embedded by the knowledge base's model. Should it fail (an API
    down, refusing, timing out), they are stored without a vector all the same (`embedded: false`; in
    bulk, `embedded` counts the others and `embedding_error` says why): text search finds them, and
    `POST .../chunks/embed` embeds them later.

    Args:
        kb (str): The knowledge base's id or name.
        defer_index (bool | Unset): Large loads: drop the knowledge base's vector index now and
            rebuild it once, 10 seconds after the last deferring request, instead of updating it row
            by row. Vector search stays correct meanwhile (exact, slower). See docs/vector-storage.md.
            Default: False.
        body (ChunkBulkUpsert):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChunkBulkResult | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
        defer_index=defer_index,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: ChunkBulkUpsert,
    defer_index: bool | Unset = False,
) -> ChunkBulkResult | Problem | None:
    """Create or replace many chunks at once, all or nothing

     Chunk ids are unique within the knowledge base: another knowledge base, of this project or another,
    may hold the same id, and writing it here never touches that chunk. An id held here by a chunk of a
    document the caller may not read is refused with 409 `chunk-id-in-use`, and nothing is written.

    Chunks sent without a vector are embedded by the knowledge base's model. Should it fail (an API
    down, refusing, timing out), they are stored without a vector all the same (`embedded: false`; in
    bulk, `embedded` counts the others and `embedding_error` says why): text search finds them, and
    `POST .../chunks/embed` embeds them later.

    Args:
        kb (str): The knowledge base's id or name.
        defer_index (bool | Unset): Large loads: drop the knowledge base's vector index now and
            rebuild it once, 10 seconds after the last deferring request, instead of updating it row
            by row. Vector search stays correct meanwhile (exact, slower). See docs/vector-storage.md.
            Default: False.
        body (ChunkBulkUpsert):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChunkBulkResult | Problem
    """

    return sync_detailed(
        kb=kb,
        client=client,
        body=body,
        defer_index=defer_index,
    ).parsed


async def asyncio_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: ChunkBulkUpsert,
    defer_index: bool | Unset = False,
) -> Response[ChunkBulkResult | Problem]:
    """Create or replace many chunks at once, all or nothing

     Chunk ids are unique within the knowledge base: another knowledge base, of this project or another,
    may hold the same id, and writing it here never touches that chunk. An id held here by a chunk of a
    document the caller may not read is refused with 409 `chunk-id-in-use`, and nothing is written.

    Chunks sent without a vector are embedded by the knowledge base's model. Should it fail (an API
    down, refusing, timing out), they are stored without a vector all the same (`embedded: false`; in
    bulk, `embedded` counts the others and `embedding_error` says why): text search finds them, and
    `POST .../chunks/embed` embeds them later.

    Args:
        kb (str): The knowledge base's id or name.
        defer_index (bool | Unset): Large loads: drop the knowledge base's vector index now and
            rebuild it once, 10 seconds after the last deferring request, instead of updating it row
            by row. Vector search stays correct meanwhile (exact, slower). See docs/vector-storage.md.
            Default: False.
        body (ChunkBulkUpsert):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChunkBulkResult | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
        defer_index=defer_index,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: ChunkBulkUpsert,
    defer_index: bool | Unset = False,
) -> ChunkBulkResult | Problem | None:
    """Create or replace many chunks at once, all or nothing

     Chunk ids are unique within the knowledge base: another knowledge base, of this project or another,
    may hold the same id, and writing it here never touches that chunk. An id held here by a chunk of a
    document the caller may not read is refused with 409 `chunk-id-in-use`, and nothing is written.

    Chunks sent without a vector are embedded by the knowledge base's model. Should it fail (an API
    down, refusing, timing out), they are stored without a vector all the same (`embedded: false`; in
    bulk, `embedded` counts the others and `embedding_error` says why): text search finds them, and
    `POST .../chunks/embed` embeds them later.

    Args:
        kb (str): The knowledge base's id or name.
        defer_index (bool | Unset): Large loads: drop the knowledge base's vector index now and
            rebuild it once, 10 seconds after the last deferring request, instead of updating it row
            by row. Vector search stays correct meanwhile (exact, slower). See docs/vector-storage.md.
            Default: False.
        body (ChunkBulkUpsert):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChunkBulkResult | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            client=client,
            body=body,
            defer_index=defer_index,
        )
    ).parsed
