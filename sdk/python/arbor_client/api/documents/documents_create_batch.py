from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.document_batch_create import DocumentBatchCreate
from ...models.document_batch_read import DocumentBatchRead
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    kb: str,
    *,
    body: DocumentBatchCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/knowledge-bases/{kb}/documents/batch".format(
            kb=quote(str(kb), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DocumentBatchRead | Problem | None:
    if response.status_code == 200:
        response_200 = DocumentBatchRead.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = DocumentBatchRead.from_dict(response.json())

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
) -> Response[DocumentBatchRead | Problem]:
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
    body: DocumentBatchCreate,
) -> Response[DocumentBatchRead | Problem]:
    """Upload many text documents in one request

     Up to 1000 JSON documents (each as the JSON body of a single upload), accepted together or not at
    all: an invalid one rejects the request, naming its index, and nothing is stored. The same size
    limit as one upload applies to the whole body. Each result says whether the document was created or
    the same bytes were uploaded before; 202 when any was created, else 200. Documents of one batch are
    ingested together, which is the fast way to load many short documents.

    Args:
        kb (str): The knowledge base's id or name.
        body (DocumentBatchCreate): Many JSON uploads in one request: accepted together or not at
            all.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentBatchRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentBatchCreate,
) -> DocumentBatchRead | Problem | None:
    """Upload many text documents in one request

     Up to 1000 JSON documents (each as the JSON body of a single upload), accepted together or not at
    all: an invalid one rejects the request, naming its index, and nothing is stored. The same size
    limit as one upload applies to the whole body. Each result says whether the document was created or
    the same bytes were uploaded before; 202 when any was created, else 200. Documents of one batch are
    ingested together, which is the fast way to load many short documents.

    Args:
        kb (str): The knowledge base's id or name.
        body (DocumentBatchCreate): Many JSON uploads in one request: accepted together or not at
            all.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentBatchRead | Problem
    """

    return sync_detailed(
        kb=kb,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentBatchCreate,
) -> Response[DocumentBatchRead | Problem]:
    """Upload many text documents in one request

     Up to 1000 JSON documents (each as the JSON body of a single upload), accepted together or not at
    all: an invalid one rejects the request, naming its index, and nothing is stored. The same size
    limit as one upload applies to the whole body. Each result says whether the document was created or
    the same bytes were uploaded before; 202 when any was created, else 200. Documents of one batch are
    ingested together, which is the fast way to load many short documents.

    Args:
        kb (str): The knowledge base's id or name.
        body (DocumentBatchCreate): Many JSON uploads in one request: accepted together or not at
            all.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentBatchRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentBatchCreate,
) -> DocumentBatchRead | Problem | None:
    """Upload many text documents in one request

     Up to 1000 JSON documents (each as the JSON body of a single upload), accepted together or not at
    all: an invalid one rejects the request, naming its index, and nothing is stored. The same size
    limit as one upload applies to the whole body. Each result says whether the document was created or
    the same bytes were uploaded before; 202 when any was created, else 200. Documents of one batch are
    ingested together, which is the fast way to load many short documents.

    Args:
        kb (str): The knowledge base's id or name.
        body (DocumentBatchCreate): Many JSON uploads in one request: accepted together or not at
            all.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentBatchRead | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            client=client,
            body=body,
        )
    ).parsed
