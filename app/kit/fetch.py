"""One SSRF-safe HTTP fetcher: for URL uploads, http sources and the webhook address check.

A URL a client chose makes the service send a request, so without limits it would reach what
only the service can: its own loopback ports, the cloud metadata address, the private network.
Every hop (the URL and each redirect) is resolved here and every address it resolves to is
checked before anything is sent; the request then goes to the checked address itself (the
`Host` header and TLS SNI keep the name), so a DNS answer that changes between the check and
the connection (rebinding) cannot move it elsewhere. Bodies are read as a stream and cut at a
byte limit (after decompression), and the whole fetch, redirects included, has one deadline.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx

from app.config import Settings
from app.kit.tls import client_tls_context

SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}
CREDENTIALS_IN_URL = "must not hold a user name or password"
REDIRECTS = frozenset({301, 302, 303, 307, 308})
USER_AGENT = "Arbor/0.1 (+https://arbor.dev/bot)"
# Cloud instance metadata services: refused even where private addresses are allowed, unless
# an operator names them in the allowed networks (AWS, GCP, Azure and others use the first;
# AWS's IPv6 one; Alibaba's).
METADATA_ADDRESSES = frozenset({"169.254.169.254", "fd00:ec2::254", "100.100.100.200"})

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
FetchErrorKind = Literal[
    "bad-url", "refused", "unreachable", "timeout", "too-large", "http-status", "redirects"
]


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone (fe80::1%eth0)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    return ip


def forbidden(address: str) -> bool:
    """True for addresses outbound requests must not reach by default: loopback, private,
    link-local, multicast, reserved, unspecified, and anything else not globally routable
    (carrier-grade NAT)."""
    ip = _ip(address)
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    )


def networks(values: Iterable[str]) -> tuple[Network, ...]:
    """CIDR blocks (`10.1.0.0/16`, `127.0.0.1`) as networks; ValueError for a bad one."""
    return tuple(ipaddress.ip_network(value.strip(), strict=False) for value in values)


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """Which resolved addresses a fetch may connect to."""

    allow_private: bool = False
    # Always allowed, metadata addresses included (an intranet wiki's block, a test's loopback).
    allowed_networks: tuple[Network, ...] = ()

    def permits(self, address: str) -> bool:
        ip = _ip(address)
        if any(ip.version == net.version and ip in net for net in self.allowed_networks):
            return True
        if str(ip) in METADATA_ADDRESSES:
            return False
        return self.allow_private or not forbidden(address)


@dataclass(frozen=True, slots=True)
class FetchLimits:
    max_bytes: int
    timeout_s: float
    max_redirects: int = 5


@dataclass(frozen=True, slots=True)
class Fetched:
    """A fetched resource; `not_modified` (a 304) has no content."""

    url: str  # after redirects
    status: int
    content: bytes
    content_type: str | None
    etag: str | None
    last_modified: str | None
    not_modified: bool = False

    @property
    def media_type(self) -> str | None:
        if self.content_type is None:
            return None
        return self.content_type.split(";", 1)[0].strip().lower() or None


class FetchError(Exception):
    """Why a URL could not be fetched; `kind` is stable, the message a sentence."""

    def __init__(self, kind: FetchErrorKind, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status


# The form `url_problem` accepts, for the spec: http or https, a host, no user name or
# password (a port out of range is refused by the check alone).
URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\s]+(?:[/?#]|$)"


def url_problem(url: str) -> str | None:
    """Why `url` cannot be fetched by its form alone, or None."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises ValueError for a port that is not a number in range
    except ValueError:
        return "is not a valid URL"
    if parts.scheme not in SCHEMES:
        return "must start with http:// or https://"
    if not parts.hostname:
        return "has no host"
    if parts.username is not None or parts.password is not None:
        return CREDENTIALS_IN_URL
    return None


async def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (an IP literal resolves to itself)."""
    found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in found})


async def checked_address(url: str, policy: AddressPolicy) -> str:
    """The address to connect to for `url`, once every address its host resolves to passed
    the policy; FetchError otherwise."""
    reason = url_problem(url)
    if reason is not None:
        raise FetchError("bad-url", f"The URL {url!r} {reason}.")
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        addresses = await resolve(host, parts.port or DEFAULT_PORTS[parts.scheme])
    except OSError as exc:
        raise FetchError("unreachable", f"The host {host!r} does not resolve.") from exc
    refused = [address for address in addresses if not policy.permits(address)]
    if refused or not addresses:
        raise FetchError(
            "refused",
            f"The host {host!r} resolves to {', '.join(refused) or 'nothing'}: loopback, "
            "private, link-local, metadata and other non-public addresses are refused.",
        )
    return addresses[0]


def _pinned(url: str, address: str) -> tuple[str, str]:
    """The URL with its host replaced by `address`, and the Host header that names it."""
    parts = urlsplit(url)
    literal = f"[{address}]" if ":" in address else address
    netloc = literal if parts.port is None else f"{literal}:{parts.port}"
    host_header = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")), host_header


async def fetch(
    url: str,
    *,
    policy: AddressPolicy,
    limits: FetchLimits,
    etag: str | None = None,
    last_modified: str | None = None,
    client: httpx.AsyncClient | None = None,
) -> Fetched:
    """GET `url` within the policy and limits, following redirects (each one checked).

    With `etag` or `last_modified` the request is conditional; a 304 answers `not_modified`.
    Raises FetchError for everything that is not a 2xx or 304 in time and within size.
    """
    owned = client is None
    http = client or new_client()
    try:
        async with asyncio.timeout(limits.timeout_s):
            return await _follow(url, policy, limits, etag, last_modified, http)
    except TimeoutError as exc:
        raise FetchError(
            "timeout", f"Fetching {url!r} took longer than {limits.timeout_s:g} s."
        ) from exc
    finally:
        if owned:
            await http.aclose()


def new_client() -> httpx.AsyncClient:
    """A client for `fetch`: no redirects of its own, no proxies or settings from the
    environment (they would connect somewhere the policy never saw)."""
    return httpx.AsyncClient(
        follow_redirects=False,
        trust_env=False,
        timeout=None,
        verify=client_tls_context(trust_env=False),
    )


async def _follow(
    url: str,
    policy: AddressPolicy,
    limits: FetchLimits,
    etag: str | None,
    last_modified: str | None,
    http: httpx.AsyncClient,
) -> Fetched:
    current = url
    for _ in range(limits.max_redirects + 1):
        address = await checked_address(current, policy)
        target, host_header = _pinned(current, address)
        headers = {"Host": host_header, "User-Agent": USER_AGENT, "Accept": "*/*"}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        extensions = {"sni_hostname": urlsplit(current).hostname or ""}
        request = http.build_request("GET", target, headers=headers, extensions=extensions)
        try:
            response = await http.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise FetchError(
                "unreachable", f"Fetching {current!r} failed: {type(exc).__name__}."
            ) from exc
        try:
            if response.status_code in REDIRECTS and "location" in response.headers:
                current = urljoin(current, response.headers["location"])
                continue
            if response.status_code == 304:
                return _result(current, response, b"", not_modified=True)
            if response.status_code >= 400 or response.status_code < 200:
                raise FetchError(
                    "http-status",
                    f"{current!r} answered {response.status_code}.",
                    status=response.status_code,
                )
            return _result(current, response, await _body(response, current, limits.max_bytes))
        finally:
            await response.aclose()
    raise FetchError("redirects", f"{url!r} redirected more than {limits.max_redirects} times.")


async def _body(response: httpx.Response, url: str, max_bytes: int) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise FetchError("too-large", f"{url!r} is larger than {max_bytes} bytes.")
    chunks: list[bytes] = []
    size = 0
    # Decoded bytes are counted, so a compressed bomb stops at the same limit.
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise FetchError("too-large", f"{url!r} is larger than {max_bytes} bytes.")
        chunks.append(chunk)
    return b"".join(chunks)


def _result(
    url: str, response: httpx.Response, content: bytes, *, not_modified: bool = False
) -> Fetched:
    return Fetched(
        url=url,
        status=response.status_code,
        content=content,
        content_type=response.headers.get("content-type"),
        etag=response.headers.get("etag"),
        last_modified=response.headers.get("last-modified"),
        not_modified=not_modified,
    )


def policy_for(settings: Settings) -> AddressPolicy:
    """The address policy of fetches for sources and URL uploads (docs/sources.md)."""
    allow = settings.source_allow_private
    if allow is None:
        allow = settings.env in ("development", "test")
    return AddressPolicy(
        allow_private=allow, allowed_networks=networks(settings.source_allowed_networks)
    )


def limits_for(settings: Settings, *, max_bytes: int | None = None) -> FetchLimits:
    return FetchLimits(
        max_bytes=max_bytes or settings.source_max_page_bytes,
        timeout_s=settings.source_fetch_timeout_s,
        max_redirects=settings.source_max_redirects,
    )
