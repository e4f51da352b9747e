from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_page import EventPage
from ...models.events_follow_type_type_0_item import EventsFollowTypeType0Item
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: None | str | Unset = UNSET,
    type_: list[EventsFollowTypeType0Item] | None | Unset = UNSET,
    knowledge_base_id: None | Unset | UUID = UNSET,
    limit: int | Unset = 100,
    wait: float | Unset = 0.0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    json_type_: list[str] | None | Unset
    if isinstance(type_, Unset):
        json_type_ = UNSET
    elif isinstance(type_, list):
        json_type_ = []
        for type_type_0_item_data in type_:
            type_type_0_item = type_type_0_item_data.value
            json_type_.append(type_type_0_item)

    else:
        json_type_ = type_
    params["type"] = json_type_

    json_knowledge_base_id: None | str | Unset
    if isinstance(knowledge_base_id, Unset):
        json_knowledge_base_id = UNSET
    elif isinstance(knowledge_base_id, UUID):
        json_knowledge_base_id = str(knowledge_base_id)
    else:
        json_knowledge_base_id = knowledge_base_id
    params["knowledge_base_id"] = json_knowledge_base_id

    params["limit"] = limit

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventPage | Problem | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    type_: list[EventsFollowTypeType0Item] | None | Unset = UNSET,
    knowledge_base_id: None | Unset | UUID = UNSET,
    limit: int | Unset = 100,
    wait: float | Unset = 0.0,
) -> Response[EventPage | Problem]:
    """What happened to knowledge bases and documents, in order; can wait for more

     Events of the caller's project in the order their changes committed: `document.ready`,
    `document.failed`, `document.updated`, `document.deleted`, `knowledge_base.created`, `.updated`,
    `.deleted`. Start without `after` (the oldest kept event) and pass each page's `next_cursor` back as
    `after`: a follower sees every event once, in order. With `wait`, the request returns as soon as
    there is an event, or after `wait` seconds with none (long polling). Only events of knowledge bases
    the key may use and of documents the caller may read.

    Args:
        after (None | str | Unset): `next_cursor` of the previous page.
        type_ (list[EventsFollowTypeType0Item] | None | Unset): Only these types.
        knowledge_base_id (None | Unset | UUID): Only this knowledge base's events.
        limit (int | Unset): Events per page. Default: 100.
        wait (float | Unset): Seconds to wait for a first event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        after=after,
        type_=type_,
        knowledge_base_id=knowledge_base_id,
        limit=limit,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    type_: list[EventsFollowTypeType0Item] | None | Unset = UNSET,
    knowledge_base_id: None | Unset | UUID = UNSET,
    limit: int | Unset = 100,
    wait: float | Unset = 0.0,
) -> EventPage | Problem | None:
    """What happened to knowledge bases and documents, in order; can wait for more

     Events of the caller's project in the order their changes committed: `document.ready`,
    `document.failed`, `document.updated`, `document.deleted`, `knowledge_base.created`, `.updated`,
    `.deleted`. Start without `after` (the oldest kept event) and pass each page's `next_cursor` back as
    `after`: a follower sees every event once, in order. With `wait`, the request returns as soon as
    there is an event, or after `wait` seconds with none (long polling). Only events of knowledge bases
    the key may use and of documents the caller may read.

    Args:
        after (None | str | Unset): `next_cursor` of the previous page.
        type_ (list[EventsFollowTypeType0Item] | None | Unset): Only these types.
        knowledge_base_id (None | Unset | UUID): Only this knowledge base's events.
        limit (int | Unset): Events per page. Default: 100.
        wait (float | Unset): Seconds to wait for a first event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return sync_detailed(
        client=client,
        after=after,
        type_=type_,
        knowledge_base_id=knowledge_base_id,
        limit=limit,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    type_: list[EventsFollowTypeType0Item] | None | Unset = UNSET,
    knowledge_base_id: None | Unset | UUID = UNSET,
    limit: int | Unset = 100,
    wait: float | Unset = 0.0,
) -> Response[EventPage | Problem]:
    """What happened to knowledge bases and documents, in order; can wait for more

     Events of the caller's project in the order their changes committed: `document.ready`,
    `document.failed`, `document.updated`, `document.deleted`, `knowledge_base.created`, `.updated`,
    `.deleted`. Start without `after` (the oldest kept event) and pass each page's `next_cursor` back as
    `after`: a follower sees every event once, in order. With `wait`, the request returns as soon as
    there is an event, or after `wait` seconds with none (long polling). Only events of knowledge bases
    the key may use and of documents the caller may read.

    Args:
        after (None | str | Unset): `next_cursor` of the previous page.
        type_ (list[EventsFollowTypeType0Item] | None | Unset): Only these types.
        knowledge_base_id (None | Unset | UUID): Only this knowledge base's events.
        limit (int | Unset): Events per page. Default: 100.
        wait (float | Unset): Seconds to wait for a first event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        after=after,
        type_=type_,
        knowledge_base_id=knowledge_base_id,
        limit=limit,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    type_: list[EventsFollowTypeType0Item] | None | Unset = UNSET,
    knowledge_base_id: None | Unset | UUID = UNSET,
    limit: int | Unset = 100,
    wait: float | Unset = 0.0,
) -> EventPage | Problem | None:
    """What happened to knowledge bases and documents, in order; can wait for more

     Events of the caller's project in the order their changes committed: `document.ready`,
    `document.failed`, `document.updated`, `document.deleted`, `knowledge_base.created`, `.updated`,
    `.deleted`. Start without `after` (the oldest kept event) and pass each page's `next_cursor` back as
    `after`: a follower sees every event once, in order. With `wait`, the request returns as soon as
    there is an event, or after `wait` seconds with none (long polling). Only events of knowledge bases
    the key may use and of documents the caller may read.

    Args:
        after (None | str | Unset): `next_cursor` of the previous page.
        type_ (list[EventsFollowTypeType0Item] | None | Unset): Only these types.
        knowledge_base_id (None | Unset | UUID): Only this knowledge base's events.
        limit (int | Unset): Events per page. Default: 100.
        wait (float | Unset): Seconds to wait for a first event. Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            type_=type_,
            knowledge_base_id=knowledge_base_id,
            limit=limit,
            wait=wait,
        )
    ).parsed
