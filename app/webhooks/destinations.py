"""Where a webhook may deliver: http(s) URLs, and outside development only public addresses.

A webhook makes the service send requests to a URL a client chose, so without limits it would
reach what only the service can: its own loopback ports, the cloud metadata address, the
private network. The address is checked at creation, at every change, and again after DNS
resolution before each delivery. What remains open (DNS rebinding between our lookup and the
HTTP client's) is stated in docs/webhooks.md.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from pydantic_core import PydanticCustomError

from app.config import Settings
from app.kit import fetch
from app.kit.fetch import DEFAULT_PORTS, AddressPolicy, resolve

MAX_URL_CHARS = 2000


def url_problem(url: str) -> str | None:
    """Why `url` cannot be a webhook's destination (its form only), or None: the fetcher's
    rules (app/kit/fetch.py)."""
    reason = fetch.url_problem(url)
    if reason == fetch.CREDENTIALS_IN_URL:
        return f"{reason} (sign requests with the secret instead)"
    return reason


def check_url(value: str) -> str:
    """A pydantic validator for webhook URLs."""
    reason = url_problem(value)
    if reason is not None:
        raise PydanticCustomError("url_invalid", f"The URL {reason}")
    return value


def private_allowed(settings: Settings) -> bool:
    """Development and tests deliver to receivers on the same machine."""
    return settings.env in ("development", "test") or settings.webhook_allow_private


async def destination_problem(url: str, settings: Settings) -> str | None:
    """Why the service may not send to `url` now (after resolving its host), or None."""
    reason = url_problem(url)
    if reason is not None or private_allowed(settings):
        return reason
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or DEFAULT_PORTS[parts.scheme]
    try:
        async with asyncio.timeout(settings.webhook_timeout_s):
            addresses = await resolve(host, port)
    except (OSError, TimeoutError):
        return f"has a host, {host!r}, that does not resolve"
    # The one address check outbound requests share (app/kit/fetch.py).
    policy = AddressPolicy(allow_private=False)
    refused = [address for address in addresses if not policy.permits(address)]
    if refused or not addresses:
        return (
            f"has a host, {host!r}, that resolves to {', '.join(refused) or 'nothing'}: "
            "loopback, private, link-local and other non-public addresses are refused "
            "(ARBOR_WEBHOOK_ALLOW_PRIVATE=true allows them)"
        )
    return None
