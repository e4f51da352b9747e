from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.document_read import DocumentRead
from ...models.document_update import DocumentUpdate
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    kb: str,
    doc: str,
    *,
    body: DocumentUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/knowledge-bases/{kb}/documents/{doc}".format(
            kb=quote(str(kb), safe=""),
            doc=quote(str(doc), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DocumentRead | Problem | None:
    if response.status_code == 200:
        response_200 = DocumentRead.from_dict(response.json())

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
) -> Response[DocumentRead | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kb: str,
    doc: str,
    *,
    client: AuthenticatedClient,
    body: DocumentUpdate,
) -> Response[DocumentRead | Problem]:
    """Change a document's title, metadata, source URI or access list in place

     Only the fields given change, without ingesting again; `metadata` replaces the whole object. In the
    same transaction the document's chunks take the new title and, where they have no metadata of their
    own, the new metadata, so search filters, hits and full-text search (which indexes the title) see
    the change at once, and a new `access` list applies to search, reads and the document's events at
    once. A pending new version of the document's external id takes the change too. Emits
    `document.updated` (unless nothing changed).

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        body (DocumentUpdate): A change in place (no ingestion): only the fields given change, at
            least one.

            `title` and `metadata` may not be null (leave them out to keep them); `source_uri: null`
            removes the URI and `access: null` lets everyone in the project read the document.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        doc=doc,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    doc: str,
    *,
    client: AuthenticatedClient,
    body: DocumentUpdate,
) -> DocumentRead | Problem | None:
    """Change a document's title, metadata, source URI or access list in place

     Only the fields given change, without ingesting again; `metadata` replaces the whole object. In the
    same transaction the document's chunks take the new title and, where they have no metadata of their
    own, the new metadata, so search filters, hits and full-text search (which indexes the title) see
    the change at once, and a new `access` list applies to search, reads and the document's events at
    once. A pending new version of the document's external id takes the change too. Emits
    `document.updated` (unless nothing changed).

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        body (DocumentUpdate): A change in place (no ingestion): only the fields given change, at
            least one.

            `title` and `metadata` may not be null (leave them out to keep them); `source_uri: null`
            removes the URI and `access: null` lets everyone in the project read the document.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentRead | Problem
    """

    return sync_detailed(
        kb=kb,
        doc=doc,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    kb: str,
    doc: str,
    *,
    client: AuthenticatedClient,
    body: DocumentUpdate,
) -> Response[DocumentRead | Problem]:
    """Change a document's title, metadata, source URI or access list in place

     Only the fields given change, without ingesting again; `metadata` replaces the whole object. In the
    same transaction the document's chunks take the new title and, where they have no metadata of their
    own, the new metadata, so search filters, hits and full-text search (which indexes the title) see
    the change at once, and a new `access` list applies to search, reads and the document's events at
    once. A pending new version of the document's external id takes the change too. Emits
    `document.updated` (unless nothing changed).

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        body (DocumentUpdate): A change in place (no ingestion): only the fields given change, at
            least one.

            `title` and `metadata` may not be null (leave them out to keep them); `source_uri: null`
            removes the URI and `access: null` lets everyone in the project read the document.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        doc=doc,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    doc: str,
    *,
    client: AuthenticatedClient,
    body: DocumentUpdate,
) -> DocumentRead | Problem | None:
    """Change a document's title, metadata, source URI or access list in place

     Only the fields given change, without ingesting again; `metadata` replaces the whole object. In the
    same transaction the document's chunks take the new title and, where they have no metadata of their
    own, the new metadata, so search filters, hits and full-text search (which indexes the title) see
    the change at once, and a new `access` list applies to search, reads and the document's events at
    once. A pending new version of the document's external id takes the change too. Emits
    `document.updated` (unless nothing changed).

    Args:
        kb (str): The knowledge base's id or name.
        doc (str): The document's id or external id.
        body (DocumentUpdate): A change in place (no ingestion): only the fields given change, at
            least one.

            `title` and `metadata` may not be null (leave them out to keep them); `source_uri: null`
            removes the URI and `access: null` lets everyone in the project read the document.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentRead | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            doc=doc,
            client=client,
            body=body,
        )
    ).parsed
