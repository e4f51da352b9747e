import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.search_analytics import SearchAnalytics
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    *,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 20,
    low_score: float | Unset = 0.5,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.datetime):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.datetime):
        json_to = to.isoformat()
    else:
        json_to = to
    params["to"] = json_to

    params["limit"] = limit

    params["low_score"] = low_score

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/knowledge-bases/{kb}/analytics".format(
            kb=quote(str(kb), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SearchAnalytics | None:
    if response.status_code == 200:
        response_200 = SearchAnalytics.from_dict(response.json())

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
) -> Response[Problem | SearchAnalytics]:
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
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 20,
    low_score: float | Unset = 0.5,
) -> Response[Problem | SearchAnalytics]:
    """What a knowledge base was asked: volume, latency, zero-hit and weak queries

     Admin scope: the query texts are other callers' words. Texts are empty lists while
    ARBOR_ANALYTICS_TEXT is off. Default window: the last 7 days.

    Args:
        kb (str): The knowledge base's id or name.
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 20.
        low_score (float | Unset):  Default: 0.5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SearchAnalytics]
    """

    kwargs = _get_kwargs(
        kb=kb,
        from_=from_,
        to=to,
        limit=limit,
        low_score=low_score,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 20,
    low_score: float | Unset = 0.5,
) -> Problem | SearchAnalytics | None:
    """What a knowledge base was asked: volume, latency, zero-hit and weak queries

     Admin scope: the query texts are other callers' words. Texts are empty lists while
    ARBOR_ANALYTICS_TEXT is off. Default window: the last 7 days.

    Args:
        kb (str): The knowledge base's id or name.
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 20.
        low_score (float | Unset):  Default: 0.5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SearchAnalytics
    """

    return sync_detailed(
        kb=kb,
        client=client,
        from_=from_,
        to=to,
        limit=limit,
        low_score=low_score,
    ).parsed


async def asyncio_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 20,
    low_score: float | Unset = 0.5,
) -> Response[Problem | SearchAnalytics]:
    """What a knowledge base was asked: volume, latency, zero-hit and weak queries

     Admin scope: the query texts are other callers' words. Texts are empty lists while
    ARBOR_ANALYTICS_TEXT is off. Default window: the last 7 days.

    Args:
        kb (str): The knowledge base's id or name.
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 20.
        low_score (float | Unset):  Default: 0.5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SearchAnalytics]
    """

    kwargs = _get_kwargs(
        kb=kb,
        from_=from_,
        to=to,
        limit=limit,
        low_score=low_score,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 20,
    low_score: float | Unset = 0.5,
) -> Problem | SearchAnalytics | None:
    """What a knowledge base was asked: volume, latency, zero-hit and weak queries

     Admin scope: the query texts are other callers' words. Texts are empty lists while
    ARBOR_ANALYTICS_TEXT is off. Default window: the last 7 days.

    Args:
        kb (str): The knowledge base's id or name.
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 20.
        low_score (float | Unset):  Default: 0.5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SearchAnalytics
    """

    return (
        await asyncio_detailed(
            kb=kb,
            client=client,
            from_=from_,
            to=to,
            limit=limit,
            low_score=low_score,
        )
    ).parsed
