"""uvicorn's HTTP/1.1 protocols, answering requests they cannot parse with problem+json.

A request line or header uvicorn's parser refuses (a control character in the query string,
say) never reaches the app: uvicorn answers a plain-text 400 of its own. These classes send the
same 400 as an RFC 9457 problem, the one error shape the README promises.
"""

from __future__ import annotations

import json

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.kit.errors import PROBLEM_BASE

_BODY = json.dumps(
    {
        "type": PROBLEM_BASE + "bad-request",
        "title": "Bad request",
        "status": 400,
        "detail": "The request is not valid HTTP/1.1: its request line (path and query string) "
        "or a header could not be parsed. Percent-encode what a URL may not hold.",
    },
    separators=(",", ":"),
).encode()


def _problem_400(default_headers: list[tuple[bytes, bytes]]) -> bytes:
    head = [b"HTTP/1.1 400 Bad Request\r\n"]
    head.extend(name + b": " + value + b"\r\n" for name, value in default_headers)
    head.append(b"content-type: application/problem+json\r\n")
    head.append(b"content-length: " + str(len(_BODY)).encode() + b"\r\n")
    head.append(b"connection: close\r\n\r\n")
    return b"".join(head) + _BODY


class ProblemHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's default protocol (httptools) with a problem+json 400."""

    def send_400_response(self, msg: str) -> None:  # noqa: ARG002 (uvicorn's text is not sent)
        self.transport.write(_problem_400(self.server_state.default_headers))
        self.transport.close()


class ProblemH11Protocol(H11Protocol):
    """uvicorn's pure-Python protocol (h11) with a problem+json 400."""

    def send_400_response(self, msg: str) -> None:  # noqa: ARG002 (uvicorn's text is not sent)
        self.transport.write(_problem_400(self.server_state.default_headers))
        self.transport.close()
