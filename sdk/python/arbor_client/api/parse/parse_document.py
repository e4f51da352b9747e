from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.parse_document_files_body import ParseDocumentFilesBody
from ...models.parse_read import ParseRead
from ...models.parse_request import ParseRequest
from ...models.problem import Problem
from ...types import UNSET, Response


def _get_kwargs(
    *,
    body: ParseRequest | ParseDocumentFilesBody | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/parse",
    }

    if isinstance(body, ParseRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, ParseDocumentFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ParseRead | Problem | None:
    if response.status_code == 200:
        response_200 = ParseRead.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ParseRead | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ParseRequest | ParseDocumentFilesBody | Unset = UNSET,
) -> Response[ParseRead | Problem]:
    """Parse text or a file into its document tree (and chunks), storing nothing

     What an upload's ingestion would make of the same bytes: JSON (`{text, title?, format?}`) or
    multipart (`file`, `title`, `format`) in any upload format, detected, limited, checked and parsed
    exactly as uploads are, with the same errors; here the parser's errors (a corrupt or encrypted PDF,
    a zip bomb) are answered at once as 422 `unprocessable-document` (413 for extracted text over its
    limit). With `knowledge_base` (and optionally `chunking`), also the chunks an upload to it would
    get. Parsing runs in worker threads, as many at once per process as its ingestion job loops
    (`ARBOR_WORKERS`, at least one); further requests wait their turn.

    Args:
        body (ParseRequest): Text to parse (markdown or plain); files go through multipart.
        body (ParseDocumentFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ParseRead | Problem]
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
    client: AuthenticatedClient,
    body: ParseRequest | ParseDocumentFilesBody | Unset = UNSET,
) -> ParseRead | Problem | None:
    """Parse text or a file into its document tree (and chunks), storing nothing

     What an upload's ingestion would make of the same bytes: JSON (`{text, title?, format?}`) or
    multipart (`file`, `title`, `format`) in any upload format, detected, limited, checked and parsed
    exactly as uploads are, with the same errors; here the parser's errors (a corrupt or encrypted PDF,
    a zip bomb) are answered at once as 422 `unprocessable-document` (413 for extracted text over its
    limit). With `knowledge_base` (and optionally `chunking`), also the chunks an upload to it would
    get. Parsing runs in worker threads, as many at once per process as its ingestion job loops
    (`ARBOR_WORKERS`, at least one); further requests wait their turn.

    Args:
        body (ParseRequest): Text to parse (markdown or plain); files go through multipart.
        body (ParseDocumentFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ParseRead | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ParseRequest | ParseDocumentFilesBody | Unset = UNSET,
) -> Response[ParseRead | Problem]:
    """Parse text or a file into its document tree (and chunks), storing nothing

     What an upload's ingestion would make of the same bytes: JSON (`{text, title?, format?}`) or
    multipart (`file`, `title`, `format`) in any upload format, detected, limited, checked and parsed
    exactly as uploads are, with the same errors; here the parser's errors (a corrupt or encrypted PDF,
    a zip bomb) are answered at once as 422 `unprocessable-document` (413 for extracted text over its
    limit). With `knowledge_base` (and optionally `chunking`), also the chunks an upload to it would
    get. Parsing runs in worker threads, as many at once per process as its ingestion job loops
    (`ARBOR_WORKERS`, at least one); further requests wait their turn.

    Args:
        body (ParseRequest): Text to parse (markdown or plain); files go through multipart.
        body (ParseDocumentFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ParseRead | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ParseRequest | ParseDocumentFilesBody | Unset = UNSET,
) -> ParseRead | Problem | None:
    """Parse text or a file into its document tree (and chunks), storing nothing

     What an upload's ingestion would make of the same bytes: JSON (`{text, title?, format?}`) or
    multipart (`file`, `title`, `format`) in any upload format, detected, limited, checked and parsed
    exactly as uploads are, with the same errors; here the parser's errors (a corrupt or encrypted PDF,
    a zip bomb) are answered at once as 422 `unprocessable-document` (413 for extracted text over its
    limit). With `knowledge_base` (and optionally `chunking`), also the chunks an upload to it would
    get. Parsing runs in worker threads, as many at once per process as its ingestion job loops
    (`ARBOR_WORKERS`, at least one); further requests wait their turn.

    Args:
        body (ParseRequest): Text to parse (markdown or plain); files go through multipart.
        body (ParseDocumentFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ParseRead | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
