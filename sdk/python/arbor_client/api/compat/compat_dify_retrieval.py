from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dify_error import DifyError
from ...models.dify_retrieval_request import DifyRetrievalRequest
from ...models.dify_retrieval_response import DifyRetrievalResponse
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: DifyRetrievalRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/compat/dify/retrieval",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DifyError | DifyRetrievalResponse | Problem | None:
    if response.status_code == 200:
        response_200 = DifyRetrievalResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 403:
        response_403 = DifyError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = DifyError.from_dict(response.json())

        return response_404

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
) -> Response[DifyError | DifyRetrievalResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DifyRetrievalRequest,
) -> Response[DifyError | DifyRetrievalResponse | Problem]:
    """Dify External Knowledge API: retrieve chunks of a knowledge base for Dify

     Register `<arbor>/compat/dify` as a Dify external knowledge API with an Arbor key; the external
    knowledge ID is a knowledge base's id or name.

    Args:
        body (DifyRetrievalRequest): Dify's request; fields it may add later are ignored rather
            than refused.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DifyError | DifyRetrievalResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: DifyRetrievalRequest,
) -> DifyError | DifyRetrievalResponse | Problem | None:
    """Dify External Knowledge API: retrieve chunks of a knowledge base for Dify

     Register `<arbor>/compat/dify` as a Dify external knowledge API with an Arbor key; the external
    knowledge ID is a knowledge base's id or name.

    Args:
        body (DifyRetrievalRequest): Dify's request; fields it may add later are ignored rather
            than refused.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DifyError | DifyRetrievalResponse | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DifyRetrievalRequest,
) -> Response[DifyError | DifyRetrievalResponse | Problem]:
    """Dify External Knowledge API: retrieve chunks of a knowledge base for Dify

     Register `<arbor>/compat/dify` as a Dify external knowledge API with an Arbor key; the external
    knowledge ID is a knowledge base's id or name.

    Args:
        body (DifyRetrievalRequest): Dify's request; fields it may add later are ignored rather
            than refused.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DifyError | DifyRetrievalResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: DifyRetrievalRequest,
) -> DifyError | DifyRetrievalResponse | Problem | None:
    """Dify External Knowledge API: retrieve chunks of a knowledge base for Dify

     Register `<arbor>/compat/dify` as a Dify external knowledge API with an Arbor key; the external
    knowledge ID is a knowledge base's id or name.

    Args:
        body (DifyRetrievalRequest): Dify's request; fields it may add later are ignored rather
            than refused.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DifyError | DifyRetrievalResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
