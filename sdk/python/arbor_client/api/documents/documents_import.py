from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.document_imported import DocumentImported
from ...models.document_transfer import DocumentTransfer
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    *,
    body: DocumentTransfer,
    keep_chunk_ids: bool | Unset = False,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["keep_chunk_ids"] = keep_chunk_ids

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/knowledge-bases/{kb}/documents/import".format(
            kb=quote(str(kb), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DocumentImported | Problem | None:
    if response.status_code == 201:
        response_201 = DocumentImported.from_dict(response.json())

        return response_201

    if response.status_code == 202:
        response_202 = DocumentImported.from_dict(response.json())

        return response_202

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
) -> Response[DocumentImported | Problem]:
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
    body: DocumentTransfer,
    keep_chunk_ids: bool | Unset = False,
) -> Response[DocumentImported | Problem]:
    """Store a document from its JSON: a tree, chunks (with or without vectors), or both

     With chunks the document is ready at once (201); with a tree alone it is queued (202) and chunked
    and embedded with the knowledge base's settings. All or nothing. An `external_id` already in use is
    a 409: imports never replace. See docs/ingestion.md.

    Args:
        kb (str): The knowledge base's id or name.
        keep_chunk_ids (bool | Unset): Keep the chunks' `chunk_id`s (new ones otherwise). Ids are
            unique within a knowledge base: one in use in this one is a 409 `chunk-id-in-use`.
            Default: False.
        body (DocumentTransfer): A document whole: what `GET .../export` answers and `POST
            .../import` takes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentImported | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
        keep_chunk_ids=keep_chunk_ids,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentTransfer,
    keep_chunk_ids: bool | Unset = False,
) -> DocumentImported | Problem | None:
    """Store a document from its JSON: a tree, chunks (with or without vectors), or both

     With chunks the document is ready at once (201); with a tree alone it is queued (202) and chunked
    and embedded with the knowledge base's settings. All or nothing. An `external_id` already in use is
    a 409: imports never replace. See docs/ingestion.md.

    Args:
        kb (str): The knowledge base's id or name.
        keep_chunk_ids (bool | Unset): Keep the chunks' `chunk_id`s (new ones otherwise). Ids are
            unique within a knowledge base: one in use in this one is a 409 `chunk-id-in-use`.
            Default: False.
        body (DocumentTransfer): A document whole: what `GET .../export` answers and `POST
            .../import` takes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentImported | Problem
    """

    return sync_detailed(
        kb=kb,
        client=client,
        body=body,
        keep_chunk_ids=keep_chunk_ids,
    ).parsed


async def asyncio_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentTransfer,
    keep_chunk_ids: bool | Unset = False,
) -> Response[DocumentImported | Problem]:
    """Store a document from its JSON: a tree, chunks (with or without vectors), or both

     With chunks the document is ready at once (201); with a tree alone it is queued (202) and chunked
    and embedded with the knowledge base's settings. All or nothing. An `external_id` already in use is
    a 409: imports never replace. See docs/ingestion.md.

    Args:
        kb (str): The knowledge base's id or name.
        keep_chunk_ids (bool | Unset): Keep the chunks' `chunk_id`s (new ones otherwise). Ids are
            unique within a knowledge base: one in use in this one is a 409 `chunk-id-in-use`.
            Default: False.
        body (DocumentTransfer): A document whole: what `GET .../export` answers and `POST
            .../import` takes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentImported | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
        keep_chunk_ids=keep_chunk_ids,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentTransfer,
    keep_chunk_ids: bool | Unset = False,
) -> DocumentImported | Problem | None:
    """Store a document from its JSON: a tree, chunks (with or without vectors), or both

     With chunks the document is ready at once (201); with a tree alone it is queued (202) and chunked
    and embedded with the knowledge base's settings. All or nothing. An `external_id` already in use is
    a 409: imports never replace. See docs/ingestion.md.

    Args:
        kb (str): The knowledge base's id or name.
        keep_chunk_ids (bool | Unset): Keep the chunks' `chunk_id`s (new ones otherwise). Ids are
            unique within a knowledge base: one in use in this one is a 409 `chunk-id-in-use`.
            Default: False.
        body (DocumentTransfer): A document whole: what `GET .../export` answers and `POST
            .../import` takes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentImported | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            client=client,
            body=body,
            keep_chunk_ids=keep_chunk_ids,
        )
    ).parsed
