from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.ancestor_read import AncestorRead
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    kb: str,
    doc: str,
    node_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/knowledge-bases/{kb}/documents/{doc}/nodes/{node_id}/ancestors".format(
            kb=quote(str(kb), safe=""),
            doc=quote(str(doc), safe=""),
            node_id=quote(str(node_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | list[AncestorRead] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = AncestorRead.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[Problem | list[AncestorRead]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kb: str,
    doc: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | list[AncestorRead]]:
    """The node's ancestors, root first, without their subtrees

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        node_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[AncestorRead]]
    """

    kwargs = _get_kwargs(
        kb=kb,
        doc=doc,
        node_id=node_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    doc: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
) -> Problem | list[AncestorRead] | None:
    """The node's ancestors, root first, without their subtrees

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        node_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[AncestorRead]
    """

    return sync_detailed(
        kb=kb,
        doc=doc,
        node_id=node_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    kb: str,
    doc: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | list[AncestorRead]]:
    """The node's ancestors, root first, without their subtrees

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        node_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[AncestorRead]]
    """

    kwargs = _get_kwargs(
        kb=kb,
        doc=doc,
        node_id=node_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    doc: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
) -> Problem | list[AncestorRead] | None:
    """The node's ancestors, root first, without their subtrees

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        node_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[AncestorRead]
    """

    return (
        await asyncio_detailed(
            kb=kb,
            doc=doc,
            node_id=node_id,
            client=client,
        )
    ).parsed
