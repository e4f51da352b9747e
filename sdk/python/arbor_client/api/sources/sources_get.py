from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.source_read import SourceRead
from ...types import Response


def _get_kwargs(
    kb: str,
    source: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/knowledge-bases/{kb}/sources/{source}".format(
            kb=quote(str(kb), safe=""),
            source=quote(str(source), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SourceRead | None:
    if response.status_code == 200:
        response_200 = SourceRead.from_dict(response.json())

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
) -> Response[Problem | SourceRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kb: str,
    source: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | SourceRead]:
    """Get a source

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SourceRead]
    """

    kwargs = _get_kwargs(
        kb=kb,
        source=source,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    source: str,
    *,
    client: AuthenticatedClient,
) -> Problem | SourceRead | None:
    """Get a source

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SourceRead
    """

    return sync_detailed(
        kb=kb,
        source=source,
        client=client,
    ).parsed


async def asyncio_detailed(
    kb: str,
    source: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | SourceRead]:
    """Get a source

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SourceRead]
    """

    kwargs = _get_kwargs(
        kb=kb,
        source=source,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    source: str,
    *,
    client: AuthenticatedClient,
) -> Problem | SourceRead | None:
    """Get a source

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SourceRead
    """

    return (
        await asyncio_detailed(
            kb=kb,
            source=source,
            client=client,
        )
    ).parsed
