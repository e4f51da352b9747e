from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    source: str,
    *,
    keep_documents: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["keep_documents"] = keep_documents

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/knowledge-bases/{kb}/sources/{source}".format(
            kb=quote(str(kb), safe=""),
            source=quote(str(source), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
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
    keep_documents: bool | Unset = False,
) -> Response[Any | Problem]:
    """Delete a source and its documents (or keep them, detached)

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.
        keep_documents (bool | Unset): Keep the documents as plain uploads (no source). Default:
            False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        source=source,
        keep_documents=keep_documents,
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
    keep_documents: bool | Unset = False,
) -> Any | Problem | None:
    """Delete a source and its documents (or keep them, detached)

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.
        keep_documents (bool | Unset): Keep the documents as plain uploads (no source). Default:
            False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        kb=kb,
        source=source,
        client=client,
        keep_documents=keep_documents,
    ).parsed


async def asyncio_detailed(
    kb: str,
    source: str,
    *,
    client: AuthenticatedClient,
    keep_documents: bool | Unset = False,
) -> Response[Any | Problem]:
    """Delete a source and its documents (or keep them, detached)

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.
        keep_documents (bool | Unset): Keep the documents as plain uploads (no source). Default:
            False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        source=source,
        keep_documents=keep_documents,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    source: str,
    *,
    client: AuthenticatedClient,
    keep_documents: bool | Unset = False,
) -> Any | Problem | None:
    """Delete a source and its documents (or keep them, detached)

    Args:
        kb (str): The knowledge base's id or name.
        source (str): The source's id or name.
        keep_documents (bool | Unset): Keep the documents as plain uploads (no source). Default:
            False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            source=source,
            client=client,
            keep_documents=keep_documents,
        )
    ).parsed
