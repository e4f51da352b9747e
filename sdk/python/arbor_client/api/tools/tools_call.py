from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.tool_call_result import ToolCallResult
from ...models.tools_call_arguments import ToolsCallArguments
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: ToolsCallArguments,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tools/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ToolCallResult | None:
    if response.status_code == 200:
        response_200 = ToolCallResult.from_dict(response.json())

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
) -> Response[Problem | ToolCallResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
    body: ToolsCallArguments,
) -> Response[Problem | ToolCallResult]:
    """Run one tool call with the caller's rights

     The body is the call's `arguments` object. The tool makes the REST calls it stands for as this key
    (scopes, knowledge-base limits, principals, delegation): a search returns exactly what `POST
    /v1/search` returns to it, plus `citations`. An error of that call is answered as it is, with its
    status.

    Args:
        name (str):
        body (ToolsCallArguments):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ToolCallResult]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient,
    body: ToolsCallArguments,
) -> Problem | ToolCallResult | None:
    """Run one tool call with the caller's rights

     The body is the call's `arguments` object. The tool makes the REST calls it stands for as this key
    (scopes, knowledge-base limits, principals, delegation): a search returns exactly what `POST
    /v1/search` returns to it, plus `citations`. An error of that call is answered as it is, with its
    status.

    Args:
        name (str):
        body (ToolsCallArguments):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ToolCallResult
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
    body: ToolsCallArguments,
) -> Response[Problem | ToolCallResult]:
    """Run one tool call with the caller's rights

     The body is the call's `arguments` object. The tool makes the REST calls it stands for as this key
    (scopes, knowledge-base limits, principals, delegation): a search returns exactly what `POST
    /v1/search` returns to it, plus `citations`. An error of that call is answered as it is, with its
    status.

    Args:
        name (str):
        body (ToolsCallArguments):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ToolCallResult]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient,
    body: ToolsCallArguments,
) -> Problem | ToolCallResult | None:
    """Run one tool call with the caller's rights

     The body is the call's `arguments` object. The tool makes the REST calls it stands for as this key
    (scopes, knowledge-base limits, principals, delegation): a search returns exactly what `POST
    /v1/search` returns to it, plus `citations`. An error of that call is answered as it is, with its
    status.

    Args:
        name (str):
        body (ToolsCallArguments):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ToolCallResult
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
