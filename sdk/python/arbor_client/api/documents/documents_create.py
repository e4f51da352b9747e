from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.document_create import DocumentCreate
from ...models.document_from_url import DocumentFromUrl
from ...models.document_read import DocumentRead
from ...models.documents_create_files_body import DocumentsCreateFilesBody
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kb: str,
    *,
    body: DocumentCreate | DocumentFromUrl | DocumentsCreateFilesBody | Unset = UNSET,
    wait: bool | Unset = False,
    timeout: float | Unset = 60.0,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["wait"] = wait

    params["timeout"] = timeout

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/knowledge-bases/{kb}/documents".format(
            kb=quote(str(kb), safe=""),
        ),
        "params": params,
    }

    if isinstance(body, DocumentCreate | DocumentFromUrl):
        if isinstance(body, DocumentCreate):
            _kwargs["json"] = body.to_dict()
        else:
            _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, DocumentsCreateFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DocumentRead | Problem | None:
    if response.status_code == 200:
        response_200 = DocumentRead.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = DocumentRead.from_dict(response.json())

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
) -> Response[DocumentRead | Problem]:
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
    body: DocumentCreate | DocumentFromUrl | DocumentsCreateFilesBody | Unset = UNSET,
    wait: bool | Unset = False,
    timeout: float | Unset = 60.0,
) -> Response[DocumentRead | Problem]:
    """Upload a document (file or text) to be parsed, chunked and embedded

     Answers 202 with the queued document, or 200 with the existing one when the same bytes were uploaded
    before. `wait=true` holds the answer until the document is `ready` or `failed` (or `timeout` seconds
    pass). Offsets in trees and chunks count Unicode code points of the extracted text.

    Args:
        kb (str): The knowledge base's id or name.
        wait (bool | Unset): Wait until ready or failed. Default: False.
        timeout (float | Unset): Seconds to wait at most. Default: 60.0.
        body (DocumentCreate | DocumentFromUrl):
        body (DocumentsCreateFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
        wait=wait,
        timeout=timeout,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentCreate | DocumentFromUrl | DocumentsCreateFilesBody | Unset = UNSET,
    wait: bool | Unset = False,
    timeout: float | Unset = 60.0,
) -> DocumentRead | Problem | None:
    """Upload a document (file or text) to be parsed, chunked and embedded

     Answers 202 with the queued document, or 200 with the existing one when the same bytes were uploaded
    before. `wait=true` holds the answer until the document is `ready` or `failed` (or `timeout` seconds
    pass). Offsets in trees and chunks count Unicode code points of the extracted text.

    Args:
        kb (str): The knowledge base's id or name.
        wait (bool | Unset): Wait until ready or failed. Default: False.
        timeout (float | Unset): Seconds to wait at most. Default: 60.0.
        body (DocumentCreate | DocumentFromUrl):
        body (DocumentsCreateFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentRead | Problem
    """

    return sync_detailed(
        kb=kb,
        client=client,
        body=body,
        wait=wait,
        timeout=timeout,
    ).parsed


async def asyncio_detailed(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentCreate | DocumentFromUrl | DocumentsCreateFilesBody | Unset = UNSET,
    wait: bool | Unset = False,
    timeout: float | Unset = 60.0,
) -> Response[DocumentRead | Problem]:
    """Upload a document (file or text) to be parsed, chunked and embedded

     Answers 202 with the queued document, or 200 with the existing one when the same bytes were uploaded
    before. `wait=true` holds the answer until the document is `ready` or `failed` (or `timeout` seconds
    pass). Offsets in trees and chunks count Unicode code points of the extracted text.

    Args:
        kb (str): The knowledge base's id or name.
        wait (bool | Unset): Wait until ready or failed. Default: False.
        timeout (float | Unset): Seconds to wait at most. Default: 60.0.
        body (DocumentCreate | DocumentFromUrl):
        body (DocumentsCreateFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentRead | Problem]
    """

    kwargs = _get_kwargs(
        kb=kb,
        body=body,
        wait=wait,
        timeout=timeout,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kb: str,
    *,
    client: AuthenticatedClient,
    body: DocumentCreate | DocumentFromUrl | DocumentsCreateFilesBody | Unset = UNSET,
    wait: bool | Unset = False,
    timeout: float | Unset = 60.0,
) -> DocumentRead | Problem | None:
    """Upload a document (file or text) to be parsed, chunked and embedded

     Answers 202 with the queued document, or 200 with the existing one when the same bytes were uploaded
    before. `wait=true` holds the answer until the document is `ready` or `failed` (or `timeout` seconds
    pass). Offsets in trees and chunks count Unicode code points of the extracted text.

    Args:
        kb (str): The knowledge base's id or name.
        wait (bool | Unset): Wait until ready or failed. Default: False.
        timeout (float | Unset): Seconds to wait at most. Default: 60.0.
        body (DocumentCreate | DocumentFromUrl):
        body (DocumentsCreateFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentRead | Problem
    """

    return (
        await asyncio_detailed(
            kb=kb,
            client=client,
            body=body,
            wait=wait,
            timeout=timeout,
        )
    ).parsed
