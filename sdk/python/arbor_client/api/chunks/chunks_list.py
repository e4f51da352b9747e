from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.page_chunk_read import PageChunkRead
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    *,
    doc_id: None | str | Unset = UNSET,
    embedded: bool | None | Unset = UNSET,
    include_vector: bool | Unset = False,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_doc_id: None | str | Unset
    if isinstance(doc_id, Unset):
        json_doc_id = UNSET
    else:
        json_doc_id = doc_id
    params["doc_id"] = json_doc_id

    json_embedded: bool | None | Unset
    if isinstance(embedded, Unset):
        json_embedded = UNSET
    else:
        json_embedded = embedded
    params["embedded"] = json_embedded

    params["include_vector"] = include_vector

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/knowledge-bases/{kb}/chunks".format(
            kb=quote(str(kb), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PageChunkRead | Problem | None:
    if response.status_code == 200:
        response_200 = PageChunkRead.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[PageChunkRead | Problem]:
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
    doc_id: None | str | Unset = UNSET,
    embedded: bool | None | Unset = UNSET,
    include_vector: bool | Unset = False,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PageChunkRead | Problem]:
    """List chunks, by document and by whether they are embedded

    Args:
        kb (str): The knowledge base's id or name.
        doc_id (None | str | Unset): Only this document's chunks: its id or external id (as chunk
            writes take it). One that names no document lists nothing, as a `doc_id` or `external_id`
            filter would.
        embedded (bool | None | Unset): true: with a vector; false: without.
        include_vector (bool | Unset): Return the vectors too. Default: False.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageChunkRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        doc_id=doc_id,
        embedded=embedded,
        include_vector=include_vector,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    *,
    client: AuthenticatedClient,
    doc_id: None | str | Unset = UNSET,
    embedded: bool | None | Unset = UNSET,
    include_vector: bool | Unset = False,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PageChunkRead | Problem | None:
    """List chunks, by document and by whether they are embedded

    Args:
        kb (str): The knowledge base's id or name.
        doc_id (None | str | Unset): Only this document's chunks: its id or external id (as chunk
            writes take it). One that names no document lists nothing, as a `doc_id` or `external_id`
            filter would.
        embedded (bool | None | Unset): true: with a vector; false: without.
        include_vector (bool | Unset): Return the vectors too. Default: False.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageChunkRead | Problem
    """

    return sync_detailed(
        kb=kb,
        client=client,
        doc_id=doc_id,
        embedded=embedded,
        include_vector=include_vector,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    doc_id: None | str | Unset = UNSET,
    embedded: bool | None | Unset = UNSET,
    include_vector: bool | Unset = False,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PageChunkRead | Problem]:
    """List chunks, by document and by whether they are embedded

    Args:
        kb (str): The knowledge base's id or name.
        doc_id (None | str | Unset): Only this document's chunks: its id or external id (as chunk
            writes take it). One that names no document lists nothing, as a `doc_id` or `external_id`
            filter would.
        embedded (bool | None | Unset): true: with a vector; false: without.
        include_vector (bool | Unset): Return the vectors too. Default: False.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageChunkRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        doc_id=doc_id,
        embedded=embedded,
        include_vector=include_vector,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    *,
    client: AuthenticatedClient,
    doc_id: None | str | Unset = UNSET,
    embedded: bool | None | Unset = UNSET,
    include_vector: bool | Unset = False,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PageChunkRead | Problem | None:
    """List chunks, by document and by whether they are embedded

    Args:
        kb (str): The knowledge base's id or name.
        doc_id (None | str | Unset): Only this document's chunks: its id or external id (as chunk
            writes take it). One that names no document lists nothing, as a `doc_id` or `external_id`
            filter would.
        embedded (bool | None | Unset): true: with a vector; false: without.
        include_vector (bool | Unset): Return the vectors too. Default: False.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageChunkRead | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            client=client,
            doc_id=doc_id,
            embedded=embedded,
            include_vector=include_vector,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
