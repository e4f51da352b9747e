from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.documents_list_status_type_0 import DocumentsListStatusType0
from ...models.page_document_read import PageDocumentRead
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    *,
    status: DocumentsListStatusType0 | None | Unset = UNSET,
    metadata: None | str | Unset = UNSET,
    filter_: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, DocumentsListStatusType0):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_metadata: None | str | Unset
    if isinstance(metadata, Unset):
        json_metadata = UNSET
    else:
        json_metadata = metadata
    params["metadata"] = json_metadata

    json_filter_: None | str | Unset
    if isinstance(filter_, Unset):
        json_filter_ = UNSET
    else:
        json_filter_ = filter_
    params["filter"] = json_filter_

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
        "url": "/v1/knowledge-bases/{kb}/documents".format(
            kb=quote(str(kb), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PageDocumentRead | Problem | None:
    if response.status_code == 200:
        response_200 = PageDocumentRead.from_dict(response.json())

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
) -> Response[PageDocumentRead | Problem]:
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
    status: DocumentsListStatusType0 | None | Unset = UNSET,
    metadata: None | str | Unset = UNSET,
    filter_: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PageDocumentRead | Problem]:
    """List documents, by status, metadata or a filter

    Args:
        kb (str): The knowledge base's id or name.
        status (DocumentsListStatusType0 | None | Unset):
        metadata (None | str | Unset): A JSON object the metadata must contain.
        filter_ (None | str | Unset): A filter (JSON) in search's filter language over document
            fields (`doc_id`, `doc_title`, `external_id`, `source_uri`, `filename`, `format`,
            `created_at`, `updated_at`, `status`) and `metadata.<key>`, e.g. `{"metadata.year":
            {"$gte": 2020}}`. A bad filter is a 422 naming its part.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageDocumentRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        status=status,
        metadata=metadata,
        filter_=filter_,
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
    status: DocumentsListStatusType0 | None | Unset = UNSET,
    metadata: None | str | Unset = UNSET,
    filter_: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PageDocumentRead | Problem | None:
    """List documents, by status, metadata or a filter

    Args:
        kb (str): The knowledge base's id or name.
        status (DocumentsListStatusType0 | None | Unset):
        metadata (None | str | Unset): A JSON object the metadata must contain.
        filter_ (None | str | Unset): A filter (JSON) in search's filter language over document
            fields (`doc_id`, `doc_title`, `external_id`, `source_uri`, `filename`, `format`,
            `created_at`, `updated_at`, `status`) and `metadata.<key>`, e.g. `{"metadata.year":
            {"$gte": 2020}}`. A bad filter is a 422 naming its part.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageDocumentRead | Problem
    """

    return sync_detailed(
        kb=kb,
        client=client,
        status=status,
        metadata=metadata,
        filter_=filter_,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    status: DocumentsListStatusType0 | None | Unset = UNSET,
    metadata: None | str | Unset = UNSET,
    filter_: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PageDocumentRead | Problem]:
    """List documents, by status, metadata or a filter

    Args:
        kb (str): The knowledge base's id or name.
        status (DocumentsListStatusType0 | None | Unset):
        metadata (None | str | Unset): A JSON object the metadata must contain.
        filter_ (None | str | Unset): A filter (JSON) in search's filter language over document
            fields (`doc_id`, `doc_title`, `external_id`, `source_uri`, `filename`, `format`,
            `created_at`, `updated_at`, `status`) and `metadata.<key>`, e.g. `{"metadata.year":
            {"$gte": 2020}}`. A bad filter is a 422 naming its part.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PageDocumentRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        status=status,
        metadata=metadata,
        filter_=filter_,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    *,
    client: AuthenticatedClient,
    status: DocumentsListStatusType0 | None | Unset = UNSET,
    metadata: None | str | Unset = UNSET,
    filter_: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PageDocumentRead | Problem | None:
    """List documents, by status, metadata or a filter

    Args:
        kb (str): The knowledge base's id or name.
        status (DocumentsListStatusType0 | None | Unset):
        metadata (None | str | Unset): A JSON object the metadata must contain.
        filter_ (None | str | Unset): A filter (JSON) in search's filter language over document
            fields (`doc_id`, `doc_title`, `external_id`, `source_uri`, `filename`, `format`,
            `created_at`, `updated_at`, `status`) and `metadata.<key>`, e.g. `{"metadata.year":
            {"$gte": 2020}}`. A bad filter is a 422 naming its part.
        limit (int | Unset): Items per page (1-200). Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PageDocumentRead | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            client=client,
            status=status,
            metadata=metadata,
            filter_=filter_,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
