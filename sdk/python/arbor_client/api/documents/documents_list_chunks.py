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
    doc: str,
    *,
    include_vector: bool | Unset = False,
    node_id: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["include_vector"] = include_vector

    json_node_id: None | str | Unset
    if isinstance(node_id, Unset):
        json_node_id = UNSET
    else:
        json_node_id = node_id
    params["node_id"] = json_node_id

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
        "url": "/v1/knowledge-bases/{kb}/documents/{doc}/chunks".format(
            kb=quote(str(kb), safe=""),
            doc=quote(str(doc), safe=""),
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
    doc: str,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
    node_id: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PageChunkRead | Problem]:
    """The document's chunks in order

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        include_vector (bool | Unset):  Default: False.
        node_id (None | str | Unset): Only the chunks under this tree node: those whose
            `node_path` holds it or that hold any of its text (a section's chunks, its subsections'
            included, and a chunk a tiny section was merged into). 404 when the document's tree has no
            such node.
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
        doc=doc,
        include_vector=include_vector,
        node_id=node_id,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    doc: str,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
    node_id: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PageChunkRead | Problem | None:
    """The document's chunks in order

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        include_vector (bool | Unset):  Default: False.
        node_id (None | str | Unset): Only the chunks under this tree node: those whose
            `node_path` holds it or that hold any of its text (a section's chunks, its subsections'
            included, and a chunk a tiny section was merged into). 404 when the document's tree has no
            such node.
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
        doc=doc,
        client=client,
        include_vector=include_vector,
        node_id=node_id,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    kb: str,
    doc: str,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
    node_id: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PageChunkRead | Problem]:
    """The document's chunks in order

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        include_vector (bool | Unset):  Default: False.
        node_id (None | str | Unset): Only the chunks under this tree node: those whose
            `node_path` holds it or that hold any of its text (a section's chunks, its subsections'
            included, and a chunk a tiny section was merged into). 404 when the document's tree has no
            such node.
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
        doc=doc,
        include_vector=include_vector,
        node_id=node_id,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    doc: str,
    *,
    client: AuthenticatedClient,
    include_vector: bool | Unset = False,
    node_id: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PageChunkRead | Problem | None:
    """The document's chunks in order

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        include_vector (bool | Unset):  Default: False.
        node_id (None | str | Unset): Only the chunks under this tree node: those whose
            `node_path` holds it or that hold any of its text (a section's chunks, its subsections'
            included, and a chunk a tiny section was merged into). 404 when the document's tree has no
            such node.
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
            doc=doc,
            client=client,
            include_vector=include_vector,
            node_id=node_id,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
